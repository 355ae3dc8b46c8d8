/// What each key and gesture of the live view does: one table that the key
/// handler, the help overlay (`?`), `segue show --help` and docs/show.md
/// are made from (a test holds the page to it).
public enum LiveControls {
    /// What a key does.
    public enum Action: Equatable, Sendable {
        /// The neighbour this many children away.
        case neighbour(Int)
        /// The child at this index.
        case select(Int)
        case pause, slow, replay, dismissBanner, statusLine, help, quit
        /// Opens the scene's first window over the child shown, or closes it.
        case openWindow, closeWindow
        /// One frame forwards (1) or back (-1).
        case step(Int)
    }

    /// One row: keys (and gestures) that do one thing.
    public struct Control: Sendable {
        /// The keys, each with what it does; none for a gesture alone.
        public let bindings: [(key: LiveKey, action: Action)]
        /// The keys and gestures as people name them: "Space, p".
        public let label: String
        /// What they do.
        public let meaning: String
        /// Both, short, for the help overlay (drawn in capitals).
        public let short: (label: String, meaning: String)
    }

    /// Every control, in the order help lists them.
    public static let all: [Control] = [
        Control(bindings: [(.left, .neighbour(-1)), (.right, .neighbour(1))], label: "Left, Right, a horizontal drag",
                meaning: "the neighbour (clamped at the ends)", short: ("LEFT / RIGHT, DRAG", "neighbour")),
        Control(bindings: (1...9).map { (.character(Character(String($0))), .select($0 - 1)) }, label: "1-9, a click on the bar",
                meaning: "that child", short: ("1-9, CLICK BAR", "select")),
        Control(bindings: [], label: "a drag from the left edge (20 points)",
                meaning: "the interactive way back: the transition follows the finger (progress = translation / width); the release finishes past half way or on a flick forwards, else cancels",
                short: ("DRAG FROM LEFT EDGE", "interactive back")),
        Control(bindings: [(.character("o"), .openWindow), (.character("c"), .closeWindow)], label: "o, c",
                meaning: "open the scene's window over the child shown (the built-in scene's calculator), and close it: an appearance and a disappearance, by the config's \"appear\" and \"disappear\" rules",
                short: ("O / C", "open / close window")),
        Control(bindings: [(.character(" "), .pause), (.character("p"), .pause)], label: "Space, p",
                meaning: "pause and play", short: ("SPACE, P", "pause")),
        Control(bindings: [(.character("s"), .slow)], label: "s", meaning: "slow motion: 1x, 0.25x, 0.1x",
                short: ("S", "slow: 1x 0.25x 0.1x")),
        Control(bindings: [(.character("."), .step(1)), (.character(","), .step(-1))], label: ". and ,",
                meaning: "one frame forwards and back (paused)", short: (". / ,", "step frame (paused)")),
        Control(bindings: [(.character("r"), .replay)], label: "r", meaning: "replay the last transition",
                short: ("R", "replay")),
        Control(bindings: [], label: "a drag along the timeline", meaning: "scrub the last transition",
                short: ("DRAG TIMELINE", "scrub")),
        Control(bindings: [(.character("x"), .dismissBanner)], label: "x, a click on the banner", meaning: "dismiss the banner",
                short: ("X", "dismiss banner")),
        Control(bindings: [(.character("i"), .statusLine)], label: "i", meaning: "status line on and off",
                short: ("I", "status line")),
        Control(bindings: [(.character("?"), .help), (.character("h"), .help)], label: "?, h", meaning: "these keys, over the view",
                short: ("?, H", "this help")),
        Control(bindings: [(.character("q"), .quit), (.character("Q"), .quit), (.escape, .quit)],
                label: "q, Escape, Ctrl-C, closing the window, SIGTERM",
                meaning: "quit (Escape first closes these keys when they are shown); no process is left behind, and a terminal is left as it was",
                short: ("Q / ESC", "quit")),
    ]

    /// What `key` does, if anything.
    public static func action(for key: LiveKey) -> Action? {
        for control in all {
            if let binding = control.bindings.first(where: { $0.key == key }) { return binding.action }
        }
        return nil
    }

    /// The table as docs/show.md shows it.
    public static var markdownTable: String {
        (["| key or gesture | what it does |", "| --- | --- |"] + all.map { "| \($0.label) | \($0.meaning) |" }).joined(separator: "\n")
    }
}
