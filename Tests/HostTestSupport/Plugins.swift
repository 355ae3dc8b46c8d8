import Foundation
import PluginHost
import TestSupport

import HostContainer

/// A registry of the three bundled plugins, run in this process from their real .so files.
public let bundledRegistry = AnimatorRegistry(folders: [Paths.binFolder], isolation: .none)

/// A delegate that uses one plugin's animator, with `values` (else its
/// parameters' defaults), for every switch.
public final class FixedDelegate: ContainerViewControllerDelegate {
    public let descriptor: AnimatorDescriptor
    public let values: [Double]
    public init(_ descriptor: AnimatorDescriptor, _ values: [Double]? = nil) {
        self.descriptor = descriptor
        self.values = values ?? descriptor.parameters.map(\.defaultValue)
    }
    public func containerViewController(_ c: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                        to: ViewController) -> AnimatorResolution {
        .use(descriptor.makeAnimator(parameters: values), reason: "fixed")
    }
}
