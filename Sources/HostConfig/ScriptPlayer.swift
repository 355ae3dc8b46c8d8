import HostContainer
import PluginHost

/// Plays a config's script: builds the container from its children, selects
/// each scripted child in turn on a virtual clock (interactively where the
/// step says so), and reports every transition.
/// The main job of `segue run`.
public struct ScriptPlayer {
    /// The config whose children, rules and script are played.
    public let config: SegueConfig
    /// The animators the rules may name.
    public let registry: AnimatorRegistry
    /// Frames per second of the virtual clock.
    public var frameRate: Double = 60
    /// The container's size.
    public var size: Rect = Rect.phonePortrait
    /// Called with the container at every frame of every transition: when it
    /// starts, after each interactive update and after each tick, the last
    /// time at rest. For renderers; nil by default.
    public var onFrame: ((ContainerViewController) -> Void)?

    /// A player for `config` with the animators in `registry`, at 60 fps.
    public init(config: SegueConfig, registry: AnimatorRegistry) {
        self.config = config
        self.registry = registry
    }

    /// The children the script runs over: the config's, or the built-in
    /// scene's when the config has none.
    public var children: [SegueConfig.Child] { config.sceneChildren }

    /// The script: the config's; else the built-in scene's when its children
    /// are used; else every child after the first, in order.
    public var script: [ScriptStep] {
        if !config.script.isEmpty { return config.script }
        if config.children.isEmpty { return SegueConfig.builtinScene.script }
        return children.dropFirst().map { ScriptStep(child: $0.name) }
    }

    /// Plays the script to the end.
    /// - Parameter onReport: called as each transition ends, in order.
    /// - Returns: every report, in order.
    /// - Throws: ``SelectionError`` when the script names a child that does not exist.
    @discardableResult
    public func play(onReport: (TransitionReport) -> Void = { _ in }) throws(SelectionError) -> [TransitionReport] {
        let clock = VirtualClock()
        let container = ContainerViewController(
            viewControllers: Scene.viewControllers(for: children, size: size), size: size, clock: clock)
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        container.delegate = delegate
        var reports: [TransitionReport] = []
        container.onTransitionEnd = { report in
            reports.append(report)
        }
        let frame = 1 / frameRate
        /// Ticks at the frame rate until the container is idle or held.
        func drive() {
            let origin = clock.now
            var frames = 0
            while container.isTransitioning && !container.isInteracting {
                frames += 1
                clock.advance(to: origin + Double(frames) * frame)
                container.tick()
                onFrame?(container)
            }
        }
        let windows = Scene.viewControllers(for: config.sceneWindows, size: size)
        for step in script {
            let before = reports.count
            if step.action != .select {
                // The config's reader checked the order: a window is presented when none is, and dismissed once presented.
                if step.action == .present, let window = windows.first(where: { $0.name == step.child }) {
                    try? container.present(window, frame: config.sceneWindows.first { $0.name == step.child }?.frame)
                } else if step.action == .dismiss {
                    try? container.dismissPresented()
                }
                if container.isTransitioning { onFrame?(container) }
            } else if let fractions = step.interactive {
                if let interaction = try container.selectInteractively(named: step.child) {
                    onFrame?(container)
                    for fraction in fractions {
                        clock.advance(by: frame)
                        interaction.update(fraction)
                        onFrame?(container)
                    }
                    clock.advance(by: frame)
                    release(interaction, step, lastFraction: fractions.last!)
                    onFrame?(container)
                }
            } else {
                try container.select(named: step.child)
                if container.isTransitioning { onFrame?(container) }
            }
            drive()
            for report in reports[before...] { onReport(report) }
        }
        return reports
    }

    private func release(_ interaction: PercentDrivenInteraction, _ step: ScriptStep, lastFraction: Double) {
        switch step.release {
        case .finish: interaction.finish(velocity: max(step.velocity, 0))
        case .cancel: interaction.cancel(velocity: max(-step.velocity, 0))
        case .gesture:
            let pan = EdgePanGesture(width: size.width)
            pan.release(interaction, translation: lastFraction * size.width, velocity: step.velocity * size.width)
        }
    }
}
