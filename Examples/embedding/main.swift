// Embedding Segue's container in a Swift program: children, a delegate that
// picks animators (one written in Swift right here, the rest plugins found
// next to this executable, hosted as segue and libsegue host them: cache,
// permission check, workers and their sandbox), and a clock the program owns.
//
//   swift build && .build/debug/EmbeddingExample

import Foundation
import HostConfig
import HostContainer
import PluginHost
import Timing

/// An animator written in the app itself: a plain crossfade. It concerns
/// itself only with the context, so any container can use it.
final class Crossfade: TransitionAnimator {
    let name = "Crossfade"
    let source = AnimatorSource.application

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        .animate(TransitionPlan(duration: 0.25, layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to))]))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        let p = TimingCurve.easeInEaseOut.value(at: t / 0.25)
        layers[0].alpha = 1 - p
        layers[1].alpha = p
    }

    func animationEnded(_ completed: Bool) {}
}

/// Crossfades into "settings", uses the CurlUp plugin into "notes", and lets
/// the container's built-in default animate everything else.
final class AppDelegate: ContainerViewControllerDelegate {
    let plugins: AnimatorRegistry

    init(plugins: AnimatorRegistry) {
        self.plugins = plugins
    }

    func containerViewController(_ container: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                 to: ViewController) -> AnimatorResolution {
        switch to.name {
        case "settings":
            return .use(Crossfade(), reason: "the app crossfades into settings")
        case "notes":
            guard let curl = plugins.animator(named: "CurlUp"),
                  case .success(let values) = curl.resolveParameters(["curve": .string("easeOut")]) else {
                return .useDefault(reason: "the CurlUp plugin is not installed")
            }
            return .use(curl.makeAnimator(parameters: values), reason: "notes curl up")
        default:
            return .useDefault(reason: "the app has no preference")
        }
    }

    func containerViewController(_ container: ContainerViewController, didSelect viewController: ViewController) {
        print("now showing \(viewController.name)")
    }
}

let size = Rect(x: 0, y: 0, width: 390, height: 844)
let children = ["home", "settings", "notes"].map { ViewController(name: $0, view: View(frame: size)) }
let clock = VirtualClock()  // a real app would pass MonotonicClock() and call tick() once per display frame
let container = ContainerViewController(viewControllers: children, size: size, clock: clock)
let executableFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
var hosting = PluginHosting(folders: [executableFolder])
hosting.onlyGivenFolders = true  // this app's own plugins, not the user's
let delegate = AppDelegate(plugins: try hosting.registry(for: nil))
container.delegate = delegate
container.onTransitionEnd = { report in
    print("\(report.from) -> \(report.to): \(report.animator), \(report.frames) frames (\(report.reason))")
}

for name in ["settings", "notes", "home"] {
    try container.select(named: name)
    while container.isTransitioning {
        clock.advance(by: 1.0 / 60)
        container.tick()
    }
}
