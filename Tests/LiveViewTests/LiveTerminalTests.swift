import Foundation
import Glibc
import HostTestSupport
import TestSupport
import Testing

@testable import HostConfig
@testable import HostContainer
@testable import LiveView
import Renderer

/// A pseudo-terminal with `segue show` on its other side: the test is the
/// terminal. Every wait has a deadline; the child is killed if the test ends first.
final class PseudoTerminal {
    let master: Int32, slave: Int32
    private(set) var pid: pid_t = 0
    private(set) var output: [UInt8] = []
    let tag = "SEGUE_TEST_TAG=pty-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init(columns: Int, rows: Int) throws {
        // posix_openpt, unlockpt and ptsname, as the kernel offers them (TIOCSPTLCK, TIOCGPTN).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENODEV)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENODEV) }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if pid > 0 { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        close(master)
        close(slave)
    }

    /// The terminal's settings as `stty -a` shows them.
    func settings() -> [UInt8] {
        var t = termios()
        tcgetattr(slave, &t)
        return withUnsafeBytes(of: &t) { Array($0) }
    }

    /// Starts `program` in a session of its own with the terminal as its standard input, output and error.
    func spawn(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in 0...2 { posix_spawn_file_actions_adddup2(&actions, slave, Int32(fd)) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80  /* POSIX_SPAWN_SETSID */)
        var env = guardedEnvironment()
        env["SEGUE_REGISTRY_CACHE"] = Paths.testCache
        env["XDG_DATA_HOME"] = Paths.emptyDataHome
        env["TERM"] = "xterm-256color"
        for (key, value) in environment { env[key] = value }
        let envList = env.merging(tagged(tag)) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = envList.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }

    func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }

    /// Reads what the program writes until `done` holds or `timeout` passes; whether it held.
    @discardableResult
    func read(timeout: Double = 20, until done: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(output) {
            guard Date() < deadline else { return false }
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if n > 0 { output += buffer[..<n] } else if n == 0 || errno != EAGAIN { usleep(10_000) }
        }
        return true
    }

    /// Reads until the output holds `text`, looked for as bytes (frames run to
    /// megabytes, and are not decoded as text on every read); whether it did.
    @discardableResult
    func read(timeout: Double = 20, untilItShows text: String) -> Bool {
        let wanted = Array(text.utf8)
        return read(timeout: timeout) { $0.firstRange(of: wanted) != nil }
    }

    /// Waits (with a deadline, then kills) for the program to end; its exit status, nil when killed.
    func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while Date() < deadline {
            read(timeout: 0.05) { _ in false }  // keep draining, or it may block writing
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                return (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil
            }
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        pid = 0
        return nil
    }

    var text: String { String(decoding: output, as: UTF8.self) }
}

/// Decodes a half-block stream into the picture it paints: cursor moves,
/// 24-bit colours and `▀` cells (two pixels each); other sequences are skipped.
struct HalfBlockPicture {
    var pixels: [Int: (UInt8, UInt8, UInt8)] = [:]  // key: y * 10_000 + x
    var statusLine = ""

    init(_ bytes: [UInt8], rows: Int) {
        var (row, column) = (1, 1)
        var fg: (UInt8, UInt8, UInt8) = (0, 0, 0), bg: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                let n = params.split(separator: ";").compactMap { Int($0) }
                switch bytes[j] {
                case UInt8(ascii: "H"):
                    (row, column) = (n.count > 0 ? n[0] : 1, n.count > 1 ? n[1] : 1)
                    if row == rows { statusLine = "" }
                case UInt8(ascii: "m") where n.count == 5 && n[1] == 2:
                    let c = (UInt8(n[2]), UInt8(n[3]), UInt8(n[4]))
                    if n[0] == 38 { fg = c } else if n[0] == 48 { bg = c }
                case UInt8(ascii: "J"):
                    pixels = [:]
                default:
                    break
                }
                i = j + 1
            } else if bytes[i] == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x96, bytes[i + 2] == 0x80 {
                pixels[(row - 1) * 2 * 10_000 + column - 1] = fg
                pixels[((row - 1) * 2 + 1) * 10_000 + column - 1] = bg
                column += 1
                i += 3
            } else {
                if row == rows, bytes[i] >= 0x20 { statusLine.append(Character(Unicode.Scalar(bytes[i]))) }
                i += 1
            }
        }
    }
}

@Suite(.serialized)
struct LiveTerminalTests {
    static let (columns, rows) = (100, 40)
    static let restoreSequence = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l"

    /// The frame the view draws of the built-in scene at the terminal's scale, from the session itself.
    static func expectedFirstFrame() -> Canvas {
        let stage = Rect.phonePortrait
        let scale = min(Double(columns) / stage.width, Double((rows - 1) * 2) / stage.height)
        let backend = HeadlessBackend(scale: scale, printsStatus: true)
        let loop = LiveLoop(session: LiveSession(config: SegueConfig.builtinScene, registry: bundledRegistry), backend: backend)
        loop.runFrame()
        return loop.canvas
    }

    /// Whether every pixel of `row` is the banner of `kind`: its colour with
    /// some of its white type mixed in (a pixel here spans several points, so
    /// how much depends on the text and the font), and nothing else.
    static func row(_ row: [(UInt8, UInt8, UInt8)], showsBannerOf kind: LiveSession.Banner.Kind) -> Bool {
        let colour = Stage.colour(of: kind)
        let base = [colour.red, colour.green, colour.blue].map { $0 * 255 }
        return !row.isEmpty && row.allSatisfy { pixel in
            let p = [Double(pixel.0), Double(pixel.1), Double(pixel.2)]
            // How much white: the mean over the channels; what it predicts must be what is there.
            let white = max(0, zip(p, base).map { ($0 - $1) / (255 - $1) }.reduce(0, +) / 3)
            return white < 0.6 && zip(p, base).allSatisfy { abs($0 - ($1 + white * (255 - $1))) < 12 }
        }
    }

    /// In a pseudo-terminal: the half-block stream decodes back into the
    /// renderer's frame, pixel for pixel; a key changes the child; the status
    /// line says so; quitting by `way` leaves the terminal's settings exactly
    /// as they were, the screen restored and no process behind.
    @Test(arguments: ["q", "escape", "ctrl-c", "SIGTERM"])
    func theHalfBlockStreamIsTheFrameAndQuittingRestoresTheTerminal(_ way: String) throws {
        let pty = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
        let before = pty.settings()
        try pty.spawn(Paths.segue, ["show", "--terminal", "--graphics", "half-blocks", "--isolation", "process"])
        #expect(pty.read(untilItShows: "fps"), "no first frame: \(pty.text.suffix(300))")
        #expect(pty.settings() != before, "the view puts the terminal in raw mode")
        let picture = HalfBlockPicture(pty.output, rows: Self.rows)
        let expected = Self.expectedFirstFrame()
        let frame = PackedPixels(expected, area: PixelRect(x0: 0, y0: 0, x1: expected.width, y1: expected.height))
        var mismatches = 0
        for y in 0..<expected.height {
            for x in 0..<expected.width where picture.pixels[y * 10_000 + x].map({ $0 != frame.rgb(x, y) }) ?? true {
                mismatches += 1
            }
        }
        #expect(expected.width > 30 && mismatches == 0, "\(mismatches) of \(expected.width)x\(expected.height) pixels differ")
        #expect(picture.statusLine.hasPrefix("photo"), "\(picture.statusLine)")
        // A key: the file child, in the next frames.
        pty.send("3")
        #expect(pty.read { HalfBlockPicture($0, rows: Self.rows).statusLine.hasPrefix("file ") }, "\(HalfBlockPicture(pty.output, rows: Self.rows).statusLine)")
        let file = Color(hex: SceneColor.file)!
        let centre = HalfBlockPicture(pty.output, rows: Self.rows).pixels[20 * 10_000 + 18]
        #expect(centre.map { abs(Double($0.0) / 255 - file.red) < 0.02 && abs(Double($0.1) / 255 - file.green) < 0.02 } == true, "\(String(describing: centre))")
        switch way {
        case "q": pty.send("q")
        case "escape": pty.send("\u{1B}")
        case "ctrl-c": pty.send("\u{03}")
        default: kill(pty.pid, SIGTERM)
        }
        #expect(pty.waitForExit() == 0, "quitting by \(way)")
        #expect(pty.settings() == before, "the terminal's settings after quitting by \(way)")
        #expect(pty.text.hasSuffix(Self.restoreSequence), "\(pty.text.suffix(80).debugDescription)")
        #expect(processesTagged(pty.tag).isEmpty, "processes left behind")
    }

    /// A terminal that answers nothing is asked, then given half-blocks; an SGR
    /// mouse click on the bar selects that child.
    @Test func aSilentTerminalGetsHalfBlocksAndTheMouseClicksTheBar() throws {
        let pty = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
        try pty.spawn(Paths.segue, ["show", "--terminal"])
        #expect(pty.read(untilItShows: "fps"))
        #expect(pty.text.contains("\u{1B}_Gi=31,s=1,v=1,a=q"), "the kitty query")
        #expect(pty.text.contains("\u{1B}[c"), "the device attributes query")
        #expect(pty.text.contains("\u{E2}\u{96}\u{80}") || pty.output.contains(0xE2), "half-blocks")
        // The bar's fourth cell (contact), clicked: row and column of the cell, 1-based.
        let expected = Self.expectedFirstFrame()
        let scale = Double(expected.width) / Rect.phonePortrait.width
        let barY = (Rect.phonePortrait.height - Stage.statusHeight - Stage.barHeight / 2) * scale
        let column = Int((Rect.phonePortrait.width / 7 * 3.5) * scale) + 1, row = Int(barY / 2) + 1
        pty.send("\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m")
        #expect(pty.read { HalfBlockPicture($0, rows: Self.rows).statusLine.hasPrefix("contact") },
                "\(HalfBlockPicture(pty.output, rows: Self.rows).statusLine)")
        pty.send("q")
        #expect(pty.waitForExit() == 0)
        #expect(processesTagged(pty.tag).isEmpty)
    }

    /// Kitty graphics, double-buffered: each frame a new image (1, then 2,
    /// then 1...) placed over the last, which is deleted; inline frames are
    /// zlib-compressed base64 in chunks, shared-memory frames name an object
    /// that holds the pixels; nothing is sent for a frame with no damage.
    @Test(arguments: [true, false])
    func kittyFramesAreNewImagesThatReplaceTheLast(_ shared: Bool) throws {
        var canvas = Canvas(width: 40, height: 30, color: Color(red: 0.2, green: 0.4, blue: 0.6))
        var encoder = KittyEncoder(medium: shared ? .sharedMemory : .direct)
        defer { encoder.removeObjects() }
        func commands(_ bytes: [UInt8]) -> [(control: String, payload: String)] {
            String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}_G").dropFirst().map { part in
                let body = part.components(separatedBy: "\u{1B}\\")[0]
                let pieces = body.split(separator: ";", maxSplits: 1).map(String.init)
                return (pieces[0], pieces.count > 1 ? pieces[1] : "")
            }
        }
        /// The pixels a frame's transmission carries.
        func pixels(_ sent: [(control: String, payload: String)]) throws -> [UInt8] {
            let payload = try #require(Data(base64Encoded: sent.map(\.payload).joined()))
            if shared {
                let name = String(decoding: payload, as: UTF8.self)
                let fd = shm_open(name, O_RDONLY, 0)
                try #require(fd >= 0, "the shared-memory object \(name) exists")
                defer { close(fd) }
                var bytes = [UInt8](repeating: 0, count: 40 * 30 * 3 + 1)
                let n = read(fd, &bytes, bytes.count)
                return Array(bytes.prefix(max(n, 0)))
            }
            return try Zlib.inflate([UInt8](payload), size: 40 * 30 * 3)
        }
        var out: [UInt8] = []
        encoder.encode(canvas, damage: PixelRect(x0: 0, y0: 0, x1: 40, y1: 30), into: &out)
        let first = commands(out)
        #expect(first.first?.control.hasPrefix("a=T,i=1,") == true && first.first?.control.contains("s=40,v=30") == true)
        #expect(first.first?.control.contains(shared ? "t=s,S=3600" : "o=z") == true, "\(first.first?.control ?? "")")
        if !shared {
            #expect(first.last?.control.hasSuffix("m=0") == true && first.dropLast().allSatisfy { $0.control.hasSuffix("m=1") })
        }
        let firstPixels = try pixels(first)
        #expect(firstPixels.count == 40 * 30 * 3 && Array(firstPixels.prefix(3)) == [51, 102, 153])
        // A changed square: a new image, then the old one deleted.
        canvas.fill(PixelRect(x0: 10, y0: 5, x1: 14, y1: 9), with: Color(red: 1, green: 1, blue: 1))
        out = []
        encoder.encode(canvas, damage: PixelRect(x0: 10, y0: 5, x1: 14, y1: 9), into: &out)
        let second = commands(out)
        #expect(second.first?.control.hasPrefix("a=T,i=2,") == true)
        #expect(second.last?.control == "a=d,d=I,i=1,q=2", "the last image is deleted after the new one is placed")
        let secondPixels = try pixels(Array(second.dropLast()))
        #expect(Array(secondPixels[(5 * 40 + 10) * 3..<(5 * 40 + 10) * 3 + 3]) == [255, 255, 255])
        out = []
        encoder.encode(canvas, damage: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0), into: &out)
        #expect(out.isEmpty, "no damage, nothing sent")
    }

    /// The terminal's bytes as the view reads them: arrows, Escape alone, Ctrl-C, SGR mouse reports, replies.
    @Test func terminalInputBecomesKeysPointersAndReplies() {
        var parser = TerminalInputParser()
        #expect(parser.parse(Array("\u{1B}[C\u{1B}[Dq3".utf8)) == [.key(.right), .key(.left), .key(.character("q")), .key(.character("3"))])
        #expect(parser.parse([0x1B]) == [.key(.escape)])
        #expect(parser.parse([0x03]) == [.interrupt])
        #expect(parser.parse(Array("\u{1B}[<0;12;7M\u{1B}[<32;14;7M\u{1B}[<0;15;7m".utf8))
                == [.mouse(.down, column: 12, row: 7), .mouse(.moved, column: 14, row: 7), .mouse(.up, column: 15, row: 7)])
        // The older mouse encoding (mlterm's): ESC [ M and three bytes of 32 + value; never keys.
        #expect(parser.parse([0x1B, 0x5B, 0x4D, 32, 32 + 12, 32 + 7, 0x1B, 0x5B, 0x4D, 32 + 32, 32 + 81, 32 + 7,
                              0x1B, 0x5B, 0x4D, 32 + 3, 32 + 81, 32 + 7])
                == [.mouse(.down, column: 12, row: 7), .mouse(.moved, column: 81, row: 7), .mouse(.up, column: 81, row: 7)])
        #expect(parser.parse([0x1B, 0x5B, 0x4D, 32], final: false).isEmpty, "kept until its three bytes are there")
        #expect(parser.parse([32 + 5, 32 + 6]) == [.mouse(.down, column: 5, row: 6)])
        // A sequence cut in two reads is kept until its end arrives.
        #expect(parser.parse(Array("\u{1B}[<0;3".utf8), final: false).isEmpty)
        #expect(parser.parse(Array(";4M".utf8)) == [.mouse(.down, column: 3, row: 4)])
        #expect(parser.parse(Array("\u{1B}[?62;4;22c".utf8)) == [.reply(Array("\u{1B}[?62;4;22c".utf8))])
        // Other buttons and the wheel are not the pointer.
        #expect(parser.parse(Array("\u{1B}[<2;3;4M\u{1B}[<64;3;4M".utf8)).isEmpty)
    }

    /// A resized terminal gets the frame again at its new size.
    @Test func aResizedTerminalIsDrawnAgainAtItsNewSize() throws {
        let pty = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
        try pty.spawn(Paths.segue, ["show", "--terminal", "--graphics", "half-blocks"])
        #expect(pty.read(untilItShows: "fps"))
        let before = pty.output.count
        var size = winsize(ws_row: 30, ws_col: 60, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.master, UInt(TIOCSWINSZ), &size)
        // The new frame: (30 - 1) * 2 pixel rows, so the stage is 58 / 844 pixels per point.
        let width = Int((Rect.phonePortrait.width * 58 / Rect.phonePortrait.height).rounded())
        #expect(pty.read { bytes in
            let after = Array(bytes[before...])
            return String(decoding: after, as: UTF8.self).contains("\u{1B}[2J") && HalfBlockPicture(after, rows: 30).statusLine.contains("fps")
        }, "no redraw after the resize")
        let picture = HalfBlockPicture(Array(pty.output[before...]), rows: 30)
        let columns = Set(picture.pixels.keys.map { $0 % 10_000 })
        #expect(columns.max() == width - 1 && picture.pixels.keys.map { $0 / 10_000 }.max() == 57, "\(columns.max() ?? -1) vs \(width - 1)")
        pty.send("q")
        #expect(pty.waitForExit() == 0)
    }

    /// Live reload under the view: a config saved with a mistake shows the
    /// error banner (red) and keeps the last good config; fixing it says so (green).
    @Test func aConfigSavedBrokenShowsTheBannerAndFixingItSaysSo() throws {
        let folder = makeTemporaryFolder("show-config")
        let path = folder + "/scene.json"
        let good = #"{"rules": [{"to": "video", "animator": "SpringSlide"}]}"#
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let pty = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
        try pty.spawn(Paths.segue, ["show", "--terminal", "--graphics", "half-blocks", "--config", path])
        #expect(pty.read(untilItShows: "fps"))
        let expected = Self.expectedFirstFrame()
        let scale = Double(expected.width) / Rect.phonePortrait.width
        // The pixels of the banner's middle row: at this scale a pixel spans points of its text too.
        let y = Int((Stage.timelineHeight + Stage.bannerHeight / 2) * scale)
        func banner(_ bytes: [UInt8]) -> [(UInt8, UInt8, UInt8)] {
            let picture = HalfBlockPicture(bytes, rows: Self.rows)
            return (0..<expected.width).compactMap { picture.pixels[y * 10_000 + $0] }
        }
        #expect(!Self.row(banner(pty.output), showsBannerOf: .error), "the photo child beneath is not the banner: \(banner(pty.output).prefix(8))")
        try replaceByRename(path, with: #"{"rules": [{"to": "video", "animator": }]}"#)
        #expect(pty.read { Self.row(banner($0), showsBannerOf: .error) }, "no red banner: \(banner(pty.output).prefix(8))")
        try replaceByRename(path, with: good)
        #expect(pty.read { Self.row(banner($0), showsBannerOf: .info) }, "no green banner: \(banner(pty.output).prefix(8))")
        pty.send("q")
        #expect(pty.waitForExit() == 0)
    }

    /// Picture files as the children, without a config: each shown whole,
    /// named after its file; one saved broken keeps its last good picture up
    /// under the error banner, and one saved anew is shown at once.
    @Test func pictureFilesAreTheChildrenAndAreShownAgainWhenSaved() throws {
        let folder = makeTemporaryFolder("show-pictures")
        func save(_ name: String, _ rgb: [UInt8]) throws {
            try replaceByRename(folder + "/" + name, with: "")
            try Data(try rgbaPNG(Array([rgb + [255]].joined()), width: 1, height: 1)).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try save("first.png", [250, 10, 10])
        try save("second.png", [10, 10, 250])
        let pty = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
        try pty.spawn(Paths.segue, ["show", "--terminal", "--graphics", "half-blocks", folder + "/first.png", folder + "/second.png"])
        #expect(pty.read(untilItShows: "fps"), "no first frame: \(pty.text.suffix(300))")
        #expect(HalfBlockPicture(pty.output, rows: Self.rows).statusLine.hasPrefix("first"))
        let expected = Self.expectedFirstFrame()
        let scale = Double(expected.width) / Rect.phonePortrait.width
        let centre = Int(Rect.phonePortrait.height / 2 * scale) * 10_000 + Int(Rect.phonePortrait.width / 2 * scale)
        let y = Int((Stage.timelineHeight + Stage.bannerHeight / 2) * scale)
        func pixel(_ bytes: [UInt8], _ key: Int) -> (UInt8, UInt8, UInt8)? { HalfBlockPicture(bytes, rows: Self.rows).pixels[key] }
        func banner(_ bytes: [UInt8]) -> [(UInt8, UInt8, UInt8)] { (0..<expected.width).compactMap { pixel(bytes, y * 10_000 + $0) } }
        #expect(pty.read { pixel($0, centre).map { $0.0 > 200 && $0.2 < 60 } == true }, "the first picture: \(String(describing: pixel(pty.output, centre)))")
        try replaceByRename(folder + "/first.png", with: "not a picture any more")
        #expect(pty.read { Self.row(banner($0), showsBannerOf: .error) }, "no red banner: \(banner(pty.output).prefix(8))")
        #expect(pixel(pty.output, centre).map { $0.0 > 200 && $0.2 < 60 } == true, "the last good picture stays up")
        try save("first.png", [10, 220, 10])
        #expect(pty.read { pixel($0, centre).map { $0.1 > 180 && $0.0 < 60 } == true }, "the picture saved anew: \(String(describing: pixel(pty.output, centre)))")
        pty.send("q")
        #expect(pty.waitForExit() == 0)
    }

    /// With no display and no terminal, show says what is missing and how to get it.
    @Test func withoutADisplayOrATerminalShowSaysWhatIsMissing() throws {
        let result = try run(Paths.segue, ["show"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], timeout: 30)
        #expect(result.status == 1)
        #expect(result.err.contains("no DISPLAY or WAYLAND_DISPLAY is set") && result.err.contains("segue preview"), "\(result.err)")
        let window = try run(Paths.segue, ["show", "--window"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], timeout: 30)
        #expect(window.status == 1 && window.err.contains("cannot open a window"), "\(window.err)")
    }
}
