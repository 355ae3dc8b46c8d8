import AnimatorABI
import Timing

/// What a plugin file provides, as plain data copied out of the plugin: no
/// pointer into plugin memory survives in it. A scanner process sends it to the
/// host, which validates it again (``PluginBoundary/validated(_:)``), since the scanner ran the
/// plugin's code and may have been corrupted by it.
package struct PluginDescription: Equatable, Sendable {
    /// The animators, in the plugin's order.
    package var animators: [AnimatorDescription]

    package init(animators: [AnimatorDescription]) {
        self.animators = animators
    }
}

/// One animator of a ``PluginDescription``.
package struct AnimatorDescription: Equatable, Sendable {
    package var id: String
    package var name: String
    package var version: String
    package var summary: String
    package var parameters: [ParameterDescriptor]
    /// The kinds of transition it was written for (ABI 1.3's `kinds`; switches before).
    package var kinds: TransitionKinds

    package init(id: String, name: String, version: String, summary: String, parameters: [ParameterDescriptor],
                 kinds: TransitionKinds = .switches) {
        (self.id, self.name, self.version, self.summary, self.parameters) = (id, name, version, summary, parameters)
        self.kinds = kinds
    }
}
