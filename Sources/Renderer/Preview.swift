import HostContainer
import Timing

/// Renders one transition of a scene on the virtual clock: every frame for an
/// animation, or stills at evenly spaced times for a filmstrip.
///
/// The container, its children and the delegate are real: what the preview
/// shows is what the container does, fallbacks included (the report says).
public struct TransitionPreview {
    /// Makes the scene's children, fresh for each container the preview builds.
    public var children: () -> [ViewController]
    /// The container's size, in points.
    public var size: Rect
    /// The child shown first; the transition leaves it.
    public var from: String
    /// The child the transition selects.
    public var to: String
    /// Draws the frames.
    public var renderer: ViewRenderer
    /// What the transition does: a switch from `from` to `to`, or ``window``
    /// opening over `from` (an appearance) or closing (a disappearance).
    public var kind = TransitionKind.switch
    /// Makes the window an appearance or a disappearance shows, with its frame.
    public var window: (() -> (ViewController, Rect?))?
    /// For an appearance or a disappearance: where the window comes from or
    /// goes to (the pointer, a task-bar entry), as a host would say it.
    public var anchor = TransitionAnchor.none

    /// A preview of `from` -> `to` among the view controllers `children` makes, in a container of `size`.
    public init(children: @escaping () -> [ViewController], size: Rect, from: String, to: String, renderer: ViewRenderer) {
        self.children = children
        self.size = size
        self.from = from
        self.to = to
        self.renderer = renderer
    }

    /// One rendered moment: seconds since the transition started, and the picture.
    public struct Frame {
        /// Seconds since the transition started.
        public var time: Double
        /// The container at that time.
        public var canvas: Canvas
        /// Where it differs from the frame before (nil: anywhere, as far as is known).
        public var changed: PixelRect? = nil
    }

    /// Renders the transition at `fps` from t = 0 until it has ended, handing
    /// each frame to `body` as soon as it is drawn and keeping none, so memory
    /// does not grow with the number of frames; the last frame shows the
    /// container at rest after the transition.
    /// - Parameter onFrame: called after each frame is rendered, with its
    ///   index and the number of frames the planned duration gives.
    /// - Returns: the number of frames and the transition's report.
    /// - Throws: ``SelectionError`` when `from` or `to` is not a child.
    public func animation(fps: Double, delegate: any ContainerViewControllerDelegate,
                          onFrame: (Int, Int) -> Void = { _, _ in },
                          body: (Frame) -> Void) throws(SelectionError) -> (frames: Int, report: TransitionReport?) {
        let frames = FrameRenderer(renderer: renderer)
        return try play(fps: fps, delegate: delegate) { index, time, view, expected in
            let changed = frames.render(view)
            body(Frame(time: time, canvas: frames.canvas, changed: changed))
            onFrame(index, expected)
        }
    }

    /// Steps the transition at `fps` from t = 0 until it has ended, handing
    /// `body` each step's index, time, the container's view (valid during the
    /// call) and the number of steps the planned duration gives; the last step
    /// shows the container at rest. Nothing is drawn: `body` decides.
    /// - Throws: ``SelectionError`` when `from` or `to` is not a child.
    public func play(fps: Double, delegate: any ContainerViewControllerDelegate,
                     body: (_ index: Int, _ time: Double, _ view: View, _ expected: Int) -> Void)
        throws(SelectionError) -> (frames: Int, report: TransitionReport?) {
        let (container, clock, report) = try start(delegate: delegate)
        var count = 0
        func expected() -> Int { max(count, Int(((container.transitionDuration ?? 0) * fps).rounded(.up)) + 2) }
        let origin = clock.now
        repeat {
            if count > 0 {
                clock.advance(to: origin + Double(count) / fps)
                container.tick()
            }
            body(count, clock.now - origin, container.view, expected())
            count += 1
        } while container.isTransitioning
        return (count, report.value)
    }

    /// The same, keeping every frame (for short animations and tests).
    public func animation(fps: Double, delegate: any ContainerViewControllerDelegate,
                          onFrame: (Int, Int) -> Void = { _, _ in }) throws(SelectionError) -> (frames: [Frame], report: TransitionReport?) {
        var frames: [Frame] = []
        let report = try animation(fps: fps, delegate: delegate, onFrame: onFrame) { frames.append($0) }.report
        return (frames, report)
    }

    /// Renders `count` stills at evenly spaced times from 0 to the transition's duration.
    /// - Throws: ``SelectionError`` when `from` or `to` is not a child.
    public func stills(count: Int, delegate: any ContainerViewControllerDelegate,
                       onFrame: (Int, Int) -> Void = { _, _ in }) throws(SelectionError) -> (frames: [Frame], report: TransitionReport?) {
        let n = max(count, 2)
        return try stills(delegate: delegate, onFrame: onFrame) { duration in
            (0..<n).map { duration * Double($0) / Double(n - 1) }
        }
    }

    /// Renders stills at the times `times(duration)` picks, in order, given the
    /// transition's duration; a time at or past the duration shows the end at rest.
    /// - Parameter onFrame: called after each still, with its index and the number of stills.
    /// - Throws: ``SelectionError`` when `from` or `to` is not a child.
    public func stills(delegate: any ContainerViewControllerDelegate, onFrame: (Int, Int) -> Void = { _, _ in },
                       times: (Double) -> [Double]) throws(SelectionError) -> (frames: [Frame], report: TransitionReport?) {
        let (container, clock, report) = try start(delegate: delegate)
        let origin = clock.now
        var frames: [Frame] = []
        let wanted = times(container.transitionDuration ?? 0)
        for (k, t) in wanted.enumerated() {
            clock.advance(to: origin + t)
            container.tick()
            frames.append(Frame(time: t, canvas: renderer.render(container.view)))
            onFrame(k, wanted.count)
        }
        container.runUntilIdle(advancing: clock)
        return (frames, report.value)
    }

    /// A box the container's end-of-transition callback fills.
    final class ReportBox { var value: TransitionReport? }

    /// A container showing `from`, with `delegate` set and the switch to `to` begun.
    private func start(delegate: any ContainerViewControllerDelegate) throws(SelectionError)
        -> (ContainerViewController, VirtualClock, ReportBox) {
        let clock = VirtualClock()
        let container = ContainerViewController(
            viewControllers: children(), size: size, clock: clock)
        // Get to the from child first (unrendered, with the default), keeping the
        // children's order so that the direction is the scene's.
        try container.select(named: from)
        container.runUntilIdle(advancing: clock)
        let window = kind == .switch ? nil : window?()
        if kind == .disappear, let (view, frame) = window {
            try? container.present(view, frame: frame)
            container.runUntilIdle(advancing: clock)
        }
        container.delegate = delegate
        container.presentationAnchor = anchor
        let box = ReportBox()
        container.onTransitionEnd = { box.value = $0 }
        switch (kind, window) {
        case (.appear, let (view, frame)?): try? container.present(view, frame: frame)
        case (.disappear, _?): try? container.dismissPresented()
        default: try container.select(named: to)
        }
        return (container, clock, box)
    }
}

/// Filmstrips: stills side by side in one picture, each labelled with its time.
public enum Filmstrip {
    /// Lays `frames` out left to right on a light background, with their times
    /// ("0.15 s") beneath, drawn by `renderer`'s font at its scale.
    public static func compose(_ frames: [TransitionPreview.Frame], renderer: ViewRenderer) -> Canvas {
        guard let first = frames.first?.canvas else { return Canvas(width: 0, height: 0) }
        let gap = max(Int((12 * renderer.scale).rounded()), 4)
        // At least 16 pixels, so that the font's 7 rows get more than a pixel each at small scales.
        let labelHeight = max(Int((28 * renderer.scale).rounded()), 16)
        var strip = Canvas(width: frames.count * (first.width + gap) + gap, height: first.height + 2 * gap + labelHeight,
                           color: Color(red: 0.93, green: 0.93, blue: 0.94))
        for (k, frame) in frames.enumerated() {
            let x = gap + k * (first.width + gap)
            strip.draw(frame.canvas, atX: x, y: gap)
            let label = View(frame: Rect(x: 0, y: 0, width: Double(first.width) / renderer.scale,
                                         height: Double(labelHeight) / renderer.scale))
            label.content = .label(TimeLabel.seconds(frame.time) + " s")
            var labelRenderer = renderer
            labelRenderer.background = .clear
            strip.draw(labelRenderer.render(label), atX: x, y: gap + first.height + gap / 2)
        }
        return strip
    }

}
