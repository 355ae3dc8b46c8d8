import HostContainer
import Renderer

/// What the live view draws: the shown container, and over it a timeline
/// along the top (the transition's duration, where it is, the animator), a
/// banner beneath it when there is one, a bar of the children's names
/// along the bottom (the shown one highlighted) and the status line at the
/// very bottom; `?` lays the keys over everything.
///
/// The overlay views are kept from frame to frame and only their properties
/// change, so a ``FrameRenderer`` redraws only what moved.
public final class Stage {
    /// Heights of the overlays, in points.
    public static let timelineHeight = 28.0, bannerHeight = 26.0, barHeight = 40.0, statusHeight = 18.0

    /// A banner's background: red for an error, amber for a warning, green
    /// for good news; its text is white.
    public static func colour(of kind: LiveSession.Banner.Kind) -> Color {
        switch kind {
        case .error: Color(red: 0.8, green: 0.16, blue: 0.16, alpha: 0.95)
        case .warning: Color(red: 0.93, green: 0.6, blue: 0.1, alpha: 0.95)
        case .info: Color(red: 0.2, green: 0.6, blue: 0.3, alpha: 0.95)
        }
    }

    /// Where the chrome lies over a container of `size`: the timeline along
    /// the top, the banner beneath it, the bar of children and the status
    /// line along the bottom. The one layout the stage draws and the session's
    /// pointer handling reads.
    public struct Layout: Sendable {
        public let timeline, banner, bar, status: Rect

        public init(size: Rect) {
            let w = size.width
            timeline = Rect(x: 0, y: 0, width: w, height: Stage.timelineHeight)
            banner = Rect(x: 0, y: Stage.timelineHeight, width: w, height: Stage.bannerHeight)
            bar = Rect(x: 0, y: size.height - Stage.statusHeight - Stage.barHeight, width: w, height: Stage.barHeight)
            status = Rect(x: 0, y: size.height - Stage.statusHeight, width: w, height: Stage.statusHeight)
        }
    }
    /// The colours the overlays use.
    static let barColor = Color(red: 0.97, green: 0.97, blue: 0.98, alpha: 0.94)
    static let highlight = Color(red: 0.2, green: 0.45, blue: 0.95)
    static let chrome = Color(red: 0.12, green: 0.12, blue: 0.14, alpha: 0.88)

    /// The keys, as `?` shows them: ``LiveControls``, short.
    static let keys: [(String, String)] = LiveControls.all.map(\.short)

    let root: View
    private let timeline = View(frame: .zero), track = View(frame: .zero), progress = View(frame: .zero)
    private let timelineLabel = View(frame: .zero)
    private let banner = View(frame: .zero)
    private let bar = View(frame: .zero)
    private var cells: [View] = []
    private let status = View(frame: .zero)
    private let help = View(frame: .zero)
    /// Whether the status line is drawn in the picture (a terminal prints it as text instead).
    let drawsStatus: Bool

    /// A stage of `size` points.
    public init(size: Rect, drawsStatus: Bool = true) {
        self.drawsStatus = drawsStatus
        // No background of its own: the live renderer's (black) shows where nothing is drawn.
        root = View(frame: size.bounds)
        let w = size.width
        let layout = Layout(size: size)
        timeline.frame = layout.timeline
        timeline.backgroundColor = Self.chrome
        track.frame = Rect(x: 8, y: 22, width: w - 16, height: 3)
        track.backgroundColor = Color(red: 0.45, green: 0.45, blue: 0.5)
        progress.frame = Rect(x: 8, y: 20, width: 0, height: 7)
        progress.backgroundColor = Self.highlight
        progress.cornerRadius = 2
        timelineLabel.frame = Rect(x: 4, y: 2, width: w - 8, height: 17)
        timelineLabel.fontSize = 11
        // Its own dark background, so its text is drawn light.
        timelineLabel.backgroundColor = Color(red: 0.12, green: 0.12, blue: 0.14)
        timeline.addSubview(track)
        timeline.addSubview(progress)
        timeline.addSubview(timelineLabel)
        banner.frame = layout.banner
        bar.frame = layout.bar
        bar.backgroundColor = Self.barColor
        status.frame = layout.status
        status.backgroundColor = Self.chrome
        status.fontSize = 11
        banner.fontSize = 12
        help.frame = Rect(x: 20, y: 80, width: w - 40, height: Double(Self.keys.count) * 22 + 20)
        // Opaque: its lines, of its colour, then do not show as darker stripes.
        help.backgroundColor = Color(red: Self.chrome.red, green: Self.chrome.green, blue: Self.chrome.blue)
        help.cornerRadius = 10
        for (k, (key, what)) in Self.keys.enumerated() {
            let line = View(frame: Rect(x: 8, y: 10 + Double(k) * 22, width: help.frame.width - 16, height: 20))
            line.content = .label("\(key)  \(what)")
            // The panel's own colour, so that the text is drawn light on it.
            line.backgroundColor = help.backgroundColor
            line.fontSize = 12
            help.addSubview(line)
        }
    }

    /// Lays the overlays out for `session` and returns the view tree to draw.
    /// The shown container's view is held by the stage until ``detach()``.
    func compose(_ session: LiveSession) -> View {
        for sub in root.subviews { sub.removeFromSuperview() }
        root.addSubview(session.shownContainer.view)
        // The timeline: the transition and where it is.
        if let t = session.timeline {
            let fraction = t.duration > 0 ? min(max(t.time / t.duration, 0), 1) : 1
            progress.frame.width = max(track.frame.width * fraction, 4)
            timelineLabel.content = .label("\(t.from) -> \(t.to)  \(t.animator)  \(TimeLabel.seconds(t.time))/\(TimeLabel.seconds(t.duration)) s")
        } else {
            progress.frame.width = 0
            timelineLabel.content = .label("no transition yet")
        }
        root.addSubview(timeline)
        if let b = session.banner {
            banner.backgroundColor = Stage.colour(of: b.kind)
            banner.content = .label(String(b.text.prefix(90)))
            root.addSubview(banner)
        }
        // The bar of children, the one shown (or headed to) highlighted.
        let names = session.childNames
        if cells.count != names.count {
            cells = names.indices.map { _ in View(frame: .zero) }
            for sub in bar.subviews { sub.removeFromSuperview() }
            cells.forEach(bar.addSubview)
        }
        let cellWidth = bar.frame.width / Double(max(names.count, 1))
        // One size for every name, the longest fitting (a letter advances about 0.56 em; 4 points of room at each side).
        let longest = Double(names.map(\.count).max() ?? 1)
        let nameSize = min((Self.barHeight - 8) * 0.45, (cellWidth - 8) / (0.56 * longest))
        for (k, cell) in cells.enumerated() {
            cell.fontSize = nameSize
            cell.frame = Rect(x: Double(k) * cellWidth + 2, y: 4, width: cellWidth - 4, height: Self.barHeight - 8)
            cell.cornerRadius = 6
            cell.content = .label(names[k])
            cell.backgroundColor = k == session.heading ? Self.highlight : .clear
        }
        root.addSubview(bar)
        if drawsStatus && session.showsStatus {
            status.content = .label(session.statusText)
            root.addSubview(status)
        }
        if session.showsHelp { root.addSubview(help) }
        return root
    }

    /// Gives the container's view back (it is the container's root again).
    func detach() {
        for sub in root.subviews { sub.removeFromSuperview() }
    }
}
