import HostConfig
import HostContainer
import PluginHost
import PluginRuntime
import Renderer
import Timing

/// The container people watch and drive in `segue show`: the config's
/// children in a container on a ``PlaybackClock``, animators chosen by the
/// config's rules exactly as `segue run` chooses them, and what people do
/// (keys, clicks, drags) turned into selections, interactive transitions
/// and playback controls. The session knows nothing of windows or
/// terminals: a ``LiveLoop`` feeds it input and time and presents what
/// ``Stage`` draws of it.
///
/// Gestures, as on a phone: left and right arrows and a horizontal drag move
/// to the neighbour (the index clamped); a click on the bar selects a child;
/// number keys 1-9 select directly; a drag that starts within
/// ``edgeWidth`` points of the left edge is the interactive way back, its
/// progress the drag's translation over the container's width, released by
/// ``EdgePanGesture``'s rule, flick included.
///
/// Not thread-safe: drive a session from one thread.
public final class LiveSession {
    /// The container's size in points: the stage's.
    public let size: Rect
    /// The config in use: the last good one.
    public private(set) var config: SegueConfig
    /// The animators the rules may name.
    public private(set) var registry: AnimatorRegistry
    /// Scene time: wall time at the playback speed.
    public let clock = PlaybackClock()
    /// The live container.
    public private(set) var container: ContainerViewController
    /// What shows on top, until dismissed: a fallback, a quarantine, a rejected plugin or a config error.
    public private(set) var banner: Banner?
    /// Whether the key help is shown (`?`).
    public private(set) var showsHelp = false
    /// Whether the status line is shown.
    public var showsStatus = true
    /// True once people asked to quit.
    public private(set) var quitRequested = false
    /// Every transition report of the live container, in order.
    public private(set) var reports: [TransitionReport] = []
    /// Frames per second and dropped frames, for the status line; the loop sets them.
    public var framesPerSecond = 0.0, droppedFrames = 0

    /// A drag that starts this close to the left edge (points) is the interactive way back.
    public static let edgeWidth = 20.0
    /// How far (points) a horizontal drag goes before it moves to the neighbour.
    public static let swipeDistance = 30.0
    /// One frame of scene time, for stepping: 1/60 s.
    public static let frameStep = 1.0 / 60

    private var delegate: LiveDelegate
    private var review: Review?
    /// The last transition the live container ran, for replay and scrubbing.
    public private(set) var lastTransition: (from: String, to: String)?
    /// The index of the child the container shows or is heading to.
    public private(set) var heading = 0
    private var gesture: Gesture?
    private var configProblem: String?

    private enum Gesture {
        case swipe(startX: Double, startY: Double, fired: Bool)
        case edgePan(PercentDrivenInteraction, startX: Double, samples: [(x: Double, time: Double)])
        case scrub
        /// A press that started nothing (on the bar, the banner, the help).
        case inert
    }

    /// A banner's text and how much it matters.
    public struct Banner: Equatable, Sendable {
        /// A config error; a fallback, quarantine or rejected plugin; good news.
        public enum Kind: Sendable { case error, warning, info }
        /// How much it matters (its colour).
        public var kind: Kind
        /// What it says, escaped.
        public var text: String
    }

    /// A session over `config`'s scene (the built-in one when it has no
    /// children) with `registry`'s animators, in a container of `size`.
    public init(config: SegueConfig, registry: AnimatorRegistry, size: Rect = .phonePortrait) {
        self.size = size
        self.config = config
        self.registry = registry
        delegate = LiveDelegate(ConfigDrivenDelegate(config: config, registry: registry))
        container = ContainerViewController(viewControllers: Scene.viewControllers(for: config.sceneChildren, size: size),
                                            size: size, clock: clock)
        attach()
        if let rejection = registry.rejections.first {
            banner = Banner(kind: .warning, text: "skipped \(PluginText.escaped(rejection.file)): \(PluginText.escaped(rejection.reason))")
        }
    }

    private func attach() {
        container.delegate = delegate
        container.onTransitionEnd = { [weak self] report in self?.ended(report) }
    }

    // MARK: - What is shown

    /// The container whose view is shown: the live one, or the one a replay or scrub plays.
    public var shownContainer: ContainerViewController { review?.container ?? container }

    /// Whether a replayed or scrubbed transition is shown instead of the live container.
    public var isReviewing: Bool { review != nil }

    /// The names of the children, in order.
    public var childNames: [String] { container.viewControllers.map(\.name) }

    /// The transition the timeline shows: from, to, animator, its source,
    /// seconds into it and its duration; nil when there has been none.
    public var timeline: (from: String, to: String, animator: String, source: String, time: Double, duration: Double)? {
        if let review {
            let r = delegate.lastResolution
            return (review.from, review.to, r?.animator ?? "default", r?.source ?? AnimatorSource.builtin.label, review.time, review.duration)
        }
        if container.isTransitioning, let running = delegate.running {
            let duration = container.transitionDuration ?? 0
            return (running.from, running.to, running.animator, running.source,
                    min(max(clock.now - running.start, 0), duration), duration)
        }
        if let last = reports.last {
            return (last.from, last.to, last.animator, Self.source(last.source), last.duration, last.duration)
        }
        return nil
    }

    /// The status line: the child shown; during a transition FROM -> TO, the
    /// animator and its source, t / duration; the speed when not 1x; pause;
    /// frames per second and dropped frames.
    public var statusText: String {
        var parts: [String] = []
        let shown = shownContainer.selectedViewController?.name ?? "-"
        if let t = timeline, shownContainer.isTransitioning {
            parts.append("\(t.from) -> \(t.to) \(t.animator) (\(t.source)) \(TimeLabel.seconds(t.time))/\(TimeLabel.seconds(t.duration)) s")
        } else {
            parts.append(shown)
        }
        if isReviewing { parts.append("replay") }
        if clock.speed != 1 { parts.append("\(clock.speed)x") }
        if clock.isPaused { parts.append("paused") }
        parts.append("\(Int(framesPerSecond.rounded())) fps \(droppedFrames) dropped")
        return PluginText.escaped(parts.joined(separator: "  "))
    }

    static func source(_ source: AnimatorSource) -> String {
        switch source {
        case .builtin: source.label
        case .plugin(let path): String(path.split(separator: "/").last ?? Substring(path))
        case .application: source.label
        }
    }

    // MARK: - Time

    /// Lets `seconds` of wall-clock time pass: scene time moves at the
    /// playback speed (not while paused); a replay moves with it.
    public func pass(_ seconds: Double) {
        let before = clock.now
        clock.pass(seconds)
        advance(by: clock.now - before)
    }

    private func advance(by sceneSeconds: Double) {
        if let review {
            // The timeline held under the pointer keeps its moment.
            if case .scrub? = gesture { return container.tick() }
            if review.time >= review.duration, !clock.isPaused {
                // The replay has shown its end: back to the live container (which shows the same child).
                self.review = nil
            } else if sceneSeconds > 0 {
                review.show(at: review.time + sceneSeconds)
            }
        }
        container.tick()
    }

    // MARK: - Input

    /// Acts on one input.
    public func handle(_ input: LiveInput) {
        switch input {
        case .close:
            quitRequested = true
        case .key(let key):
            handle(key)
        case .pointer(let phase, let x, let y, let time):
            pointer(phase, x: x, y: y, time: time)
        }
    }

    /// Does what ``LiveControls`` says `key` does.
    private func handle(_ key: LiveKey) {
        switch LiveControls.action(for: key) {
        case .quit?:
            if key == .escape && showsHelp { showsHelp = false } else { quitRequested = true }
        case .neighbour(let offset)?: move(by: offset)
        case .select(let index)?: select(index)
        case .pause?: clock.isPaused.toggle()
        case .slow?: clock.cycleSpeed()
        case .step(let direction)?: if direction > 0 { stepForward() } else { stepBack() }
        case .replay?: replay()
        case .help?: showsHelp.toggle()
        case .dismissBanner?: banner = nil
        case .statusLine?: showsStatus.toggle()
        case .openWindow?: openWindow()
        case .closeWindow?: closeWindow()
        case nil: break
        }
    }

    /// Selects the neighbour `offset` away from the child shown or headed to.
    public func move(by offset: Int) { select(heading + offset) }

    /// Selects the child at `index` (clamped), ending any replay.
    public func select(_ index: Int) {
        review = nil
        guard !childNames.isEmpty else { return }
        heading = min(max(index, 0), childNames.count - 1)
        container.select(index: heading)
    }

    /// The scene's window, made once so that it closes as it opened.
    private var window: ViewController?

    /// Opens the scene's first window over the child shown (an appearance), ending any replay.
    public func openWindow() {
        guard let spec = config.sceneWindows.first else {
            banner = Banner(kind: .info, text: "no window to open: add one to the config's \"windows\"")
            return
        }
        review = nil
        let made = window?.name == spec.name ? window! : Scene.viewControllers(for: [spec], size: size)[0]
        window = made
        try? container.present(made, frame: spec.frame)  // already open (or opening): nothing to do
    }

    /// Closes the window opened over the child shown (a disappearance).
    public func closeWindow() {
        review = nil
        try? container.dismissPresented()  // none open: nothing to do
    }

    /// Plays the last transition again from its start (with the animators as they are now).
    public func replay() {
        guard let last = lastTransition else { return }
        review = Review(from: last.from, to: last.to, children: children, size: size, delegate: delegate)
    }

    /// Shows the replayed transition at `fraction` of its duration.
    public func scrub(to fraction: Double) {
        if review == nil { replay() }
        guard let review else { return }
        review.show(at: min(max(fraction, 0), 1) * review.duration)
    }

    /// One frame on, while paused: of the replay, or of the live container.
    public func stepForward() {
        if let review {
            review.show(at: review.time + Self.frameStep)
        } else {
            clock.step(Self.frameStep)
            container.tick()
        }
    }

    /// One frame back: of the replay; of the live transition (shown as a
    /// replay from where it is); or into the end of the last transition.
    public func stepBack() {
        if let review {
            review.show(at: review.time - Self.frameStep)
            return
        }
        let at: Double
        if container.isTransitioning, let running = delegate.running {
            lastTransition = (running.from, running.to)
            at = clock.now - running.start - Self.frameStep
        } else if let last = reports.last {
            at = last.duration - Self.frameStep
        } else {
            return
        }
        replay()
        review?.show(at: at)
    }

    private func children() -> [ViewController] { Scene.viewControllers(for: config.sceneChildren, size: size) }

    // MARK: - Pointer

    /// The timeline along the top, in points.
    public var timelineRect: Rect { Stage.Layout(size: size).timeline }
    /// The bar of children along the bottom.
    public var barRect: Rect { Stage.Layout(size: size).bar }
    /// The banner beneath the timeline, when there is one.
    public var bannerRect: Rect? { banner.map { _ in Stage.Layout(size: size).banner } }

    private func contains(_ r: Rect, _ x: Double, _ y: Double) -> Bool {
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    }

    /// The bar cell (child index) at `x`.
    public func barIndex(at x: Double) -> Int {
        let count = max(childNames.count, 1)
        return min(max(Int(x / size.width * Double(count)), 0), count - 1)
    }

    private func pointer(_ phase: PointerPhase, x: Double, y: Double, time: Double) {
        switch phase {
        case .down:
            gesture = .inert
            if showsHelp { showsHelp = false; return }
            if contains(timelineRect, x, y), lastTransition != nil || container.isTransitioning {
                if review == nil, container.isTransitioning, let running = delegate.running { lastTransition = (running.from, running.to) }
                gesture = .scrub
                scrub(to: x / size.width)
            } else if let rect = bannerRect, contains(rect, x, y) {
                banner = nil
            } else if contains(barRect, x, y) {
                select(barIndex(at: x))
            } else if x < Self.edgeWidth {
                review = nil
                if let interaction = container.selectInteractively(index: heading - 1) {
                    heading -= 1
                    gesture = .edgePan(interaction, startX: x, samples: [(x, time)])
                }
            } else {
                gesture = .swipe(startX: x, startY: y, fired: false)
            }
        case .moved:
            switch gesture {
            case .scrub?:
                scrub(to: x / size.width)
            case .edgePan(let interaction, let startX, var samples)?:
                samples.append((x, time))
                // The last tenth of a second gives the release its speed.
                if let recent = samples.firstIndex(where: { time - $0.time <= 0.1 }), recent > 0 { samples.removeFirst(recent - 1) }
                interaction.update(EdgePanGesture(width: size.width).progress(translation: x - startX))
                gesture = .edgePan(interaction, startX: startX, samples: samples)
            case .swipe(let startX, let startY, false)?:
                let (dx, dy) = (x - startX, y - startY)
                if abs(dx) >= Self.swipeDistance, abs(dx) > abs(dy) {
                    // Dragging leftwards brings the next child in.
                    move(by: dx < 0 ? 1 : -1)
                    gesture = .swipe(startX: startX, startY: startY, fired: true)
                }
            default:
                break
            }
        case .up:
            if case .edgePan(let interaction, let startX, var samples)? = gesture {
                samples.append((x, time))
                let first = samples.first { time - $0.time <= 0.1 } ?? samples[0]
                let elapsed = time - first.time
                let velocity = elapsed > 0 ? (x - first.x) / elapsed : 0
                EdgePanGesture(width: size.width).release(interaction, translation: x - startX, velocity: velocity)
            } else if case .swipe(_, _, false)? = gesture {
                // A quick drag may move far between two reports: judge it where it ends.
                pointer(.moved, x: x, y: y, time: time)
            }
            gesture = nil
        }
    }

    // MARK: - Transitions

    private func ended(_ report: TransitionReport) {
        reports.append(report)
        guard report.kind == .switch else { return }  // a replay or a scrub plays switches
        lastTransition = (report.from, report.to)
        if !report.completed, let index = childNames.firstIndex(of: report.shown), !container.isTransitioning {
            heading = index
        }
        if report.fellBack {
            banner = Banner(kind: .warning, text: PluginText.escaped("\(report.from) -> \(report.to): \(report.reason)"))
        }
    }

    // MARK: - Reload

    /// Shows `text` in the banner (escaped), as the host says something the session cannot know.
    public func say(_ text: String, kind: Banner.Kind) {
        banner = Banner(kind: kind, text: PluginText.escaped(text))
    }

    /// Takes a reload (``ConfigReloader/reload(changed:)``): the config in
    /// force (the last good one while the file is broken, with a banner saying
    /// why, and another when it is fixed) and the animators. A rebuilt plugin
    /// is used from the next transition; `r` replays the last one with it.
    /// - Returns: what changed, for people.
    @discardableResult
    public func apply(_ reload: ConfigReloader.Outcome) -> [String] {
        if let state = reload.configState(naming: reload.config.file) {
            let problem = reload.configErrors > 0 ? reload.configProblems.joined(separator: "; ") : nil
            configProblem = problem
            banner = Banner(kind: problem == nil ? .info : .error, text: PluginText.escaped(problem.map { "\($0); \(state)" } ?? state))
        }
        if reload.configChanged {
            let sameScene = reload.config.sceneChildren == config.sceneChildren
            config = reload.config
            if !sameScene {
                container = ContainerViewController(viewControllers: children(), size: size, clock: clock)
                review = nil
                heading = 0
            }
        }
        registry = reload.registry
        if let rejection = registry.rejections.first, !reload.registryChanges.isEmpty {
            banner = Banner(kind: .warning, text: "skipped \(PluginText.escaped(rejection.file)): \(PluginText.escaped(rejection.reason))")
        }
        delegate = LiveDelegate(ConfigDrivenDelegate(config: config, registry: registry))
        attach()
        return reload.changes(naming: config.file)
    }
}

/// The config's delegate, remembering what it chose for the transition that runs.
final class LiveDelegate: ContainerViewControllerDelegate {
    let rules: ConfigDrivenDelegate
    /// The transition the live container runs: names, animator, source, and its start in scene time.
    var running: (from: String, to: String, animator: String, source: String, start: Double)?
    /// What the last resolution chose.
    var lastResolution: (animator: String, source: String)?

    init(_ rules: ConfigDrivenDelegate) { self.rules = rules }

    func containerViewController(_ container: ContainerViewController, animationControllerForTransitionFrom from: ViewController,
                                 to: ViewController) -> AnimatorResolution {
        let resolution = rules.containerViewController(container, animationControllerForTransitionFrom: from, to: to)
        let (animator, source) = remember(resolution)
        if container.name != "review" {
            running = (from.name, to.name, animator, source, container.clock.now)
        }
        return resolution
    }

    /// Keeps what `resolution` chose as the last resolution, and returns it.
    private func remember(_ resolution: AnimatorResolution) -> (animator: String, source: String) {
        let chosen = (resolution.animator?.name ?? "default",
                      resolution.animator.map { LiveSession.source($0.source) } ?? AnimatorSource.builtin.label)
        lastResolution = chosen
        return chosen
    }

    func containerViewController(_ container: ContainerViewController, animationControllerFor kind: TransitionKind,
                                 of presented: ViewController, over beneath: ViewController) -> AnimatorResolution {
        let resolution = rules.containerViewController(container, animationControllerFor: kind, of: presented, over: beneath)
        _ = remember(resolution)
        running = nil  // the timeline and a replay follow switches
        return resolution
    }
}
