import Glibc
import HostContainer
import Renderer
import SystemCalls

/// Where the live view's frames go and its input comes from: a window, a
/// terminal, or memory (tests).
public protocol LiveBackend: AnyObject {
    /// Pixels per point frames are drawn at.
    var scale: Double { get }
    /// Whether ``present(_:damage:status:)`` waits for the display's refresh
    /// (vsync): then the loop does not pace itself.
    var pacesItself: Bool { get }
    /// Whether the back end shows the status line itself (a terminal's last
    /// line) rather than in the picture.
    var printsStatus: Bool { get }
    /// The input that arrived; waits for some until `deadline` (monotonic
    /// seconds) at most, and returns at once when there is input.
    func events(waitingUntil deadline: Double) -> [LiveInput]
    /// Shows `canvas`, of which only `damage` changed since the last call.
    /// - Returns: the seconds of it spent waiting for the display's refresh
    ///   (vsync), which are not the frame's cost.
    @discardableResult
    func present(_ canvas: Canvas, damage: PixelRect, status: String) -> Double
}

/// The live view's loop: once per frame it reads the input, lets the wall
/// clock's time pass on the session (at its playback speed), draws the
/// stage's damage and presents it; paced by the display when the back end
/// waits for vsync, else at ``frameInterval``.
///
/// A key read at a frame's start acts before that frame is drawn: its effect
/// is in the next frame presented.
public final class LiveLoop {
    /// What is shown and driven.
    public let session: LiveSession
    /// Where frames go and input comes from.
    public let backend: any LiveBackend
    /// The wall clock: monotonic for people, virtual for tests.
    public let wallClock: any TransitionClock
    /// Seconds between frames when the loop paces itself: 1/60.
    public let frameInterval: Double
    /// Seconds from each frame's start to its present (handed to the display,
    /// the wait for its refresh left out), in order (the benchmark reads them).
    public private(set) var frameTimes: [Double] = []
    /// Refreshes (at ``frameInterval``) that passed without a new frame.
    public private(set) var droppedFrames = 0
    /// Frames presented.
    public private(set) var frameCount = 0
    /// Input made up each frame, before what the back end read (`segue show --play`).
    public var script: ((LiveSession, Double) -> [LiveInput])?
    /// Runs at every frame's start (reloads).
    public var onFrame: (() -> Void)?
    /// A descriptor that becomes readable when the view must end (a signal pipe): checked every frame.
    public var interrupt: Int32?

    /// The last canvas presented.
    public var canvas: Canvas { frames.canvas }

    private let stage: Stage
    private var frames: FrameRenderer
    private var lastFrame: Double?
    private var nextDeadline: Double?
    private var recent: [Double] = []

    /// What labels are drawn in: the standard typeface unless set (nil: the built-in 5 x 7 font).
    public var typeface: Typeface? = try? Typeface.standard.get() {
        didSet { if typeface != oldValue { frames = FrameRenderer(renderer: Self.renderer(scale: backend.scale, typeface: typeface)) } }
    }

    /// A loop over `session` presenting to `backend`.
    public init(session: LiveSession, backend: any LiveBackend, wallClock: any TransitionClock = MonotonicClock(),
                frameInterval: Double = 1.0 / 60) {
        self.session = session
        self.backend = backend
        self.wallClock = wallClock
        self.frameInterval = frameInterval
        stage = Stage(size: session.size, drawsStatus: !backend.printsStatus)
        frames = FrameRenderer(renderer: Self.renderer(scale: backend.scale, typeface: typeface))
    }

    /// The live view's renderer: over black, on every core from 80,000 pixels to work out up (a quarter of a 390x844 frame).
    static func renderer(scale: Double, typeface: Typeface?) -> ViewRenderer {
        var renderer = ViewRenderer(scale: scale, background: Color(red: 0, green: 0, blue: 0), typeface: typeface)
        renderer.bandsFrom = 80_000
        return renderer
    }

    /// One frame: input, time, drawing, present.
    /// - Parameter wait: whether to wait for input until the frame's slot (a paced loop); tests pass false.
    /// - Returns: false once the session asked to quit.
    @discardableResult
    public func runFrame(wait: Bool = false) -> Bool {
        let deadline = nextDeadline ?? wallClock.now
        let read = backend.events(waitingUntil: wait && !backend.pacesItself ? deadline : 0)
        if let interrupt {
            var fds = [pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, 0) > 0 { session.handle(.close) }
        }
        onFrame?()
        for input in (script?(session, wallClock.now) ?? []) + read {
            session.handle(input)
        }
        guard !session.quitRequested else { return false }
        let start = wallClock.now
        // What the frame costs is real time, whatever clock the scene runs on.
        let costStart = MonotonicTime.now
        if let lastFrame {
            session.pass(start - lastFrame)
            // Frames are a slot apart: a gap of more than one and a half slots left a refresh without a new frame.
            let gap = start - lastFrame
            if wait, gap > frameInterval * 1.5 { droppedFrames += Int((gap / frameInterval).rounded()) - 1 }
        }
        lastFrame = start
        nextDeadline = max(deadline + frameInterval, start)
        recent.append(start)
        recent.removeAll { start - $0 > 1 }
        session.framesPerSecond = Double(recent.count - 1) / max((recent.last ?? 0) - (recent.first ?? 0), 1e-9)
        session.droppedFrames = droppedFrames
        if backend.scale != frames.renderer.scale {
            // The terminal was resized: draw at the new size.
            frames = FrameRenderer(renderer: Self.renderer(scale: backend.scale, typeface: typeface))
        }
        let damage = frames.render(stage.compose(session))
        stage.detach()
        let waited = backend.present(frames.canvas, damage: damage, status: session.showsStatus ? session.statusText : "")
        frameTimes.append(MonotonicTime.now - costStart - waited)
        frameCount += 1
        return true
    }

    /// Runs frames until the session quits or `stop` says so.
    public func run(until stop: () -> Bool = { false }) {
        while !stop(), runFrame(wait: true) {}
    }
}

/// A back end in memory, for tests: input from a list; the frame presented is the loop's ``LiveLoop/canvas``.
public final class HeadlessBackend: LiveBackend {
    public let scale: Double
    public let pacesItself = true
    public let printsStatus: Bool
    /// Input handed to the next frame.
    public var pending: [LiveInput] = []
    /// The last status line handed over.
    public private(set) var lastStatus = ""

    /// A back end drawing at `scale` pixels per point; `printsStatus` as a terminal's would.
    public init(scale: Double = 1, printsStatus: Bool = false) {
        self.scale = scale
        self.printsStatus = printsStatus
    }

    public func events(waitingUntil deadline: Double) -> [LiveInput] {
        defer { pending = [] }
        return pending
    }

    public func present(_ canvas: Canvas, damage: PixelRect, status: String) -> Double {
        lastStatus = status
        return 0
    }
}
