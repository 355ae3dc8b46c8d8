import Foundation
import Glibc
import HostContainer
import Renderer
import SystemCalls

/// Why the terminal cannot show the live view.
public struct TerminalError: Error, CustomStringConvertible {
    /// What is missing and what to do about it.
    public let description: String
}

/// The live view in a terminal, for people on a server over SSH: frames as
/// kitty graphics, sixel or half-blocks (what the terminal answers it can
/// show; only then `$TERM`), only what changed sent, each frame in one
/// synchronized update (`CSI ? 2026 h/l`); the status line on the last line;
/// keys and SGR (1006) mouse drags read in raw mode; a resize redraws.
///
/// The terminal is left exactly as it was however the view ends (`q`,
/// Escape, Ctrl-C, SIGTERM, an error): ``restore()`` runs from every path and
/// on deinit: alternate screen left, cursor shown, mouse reporting off, the
/// saved termios settings put back.
///
/// Frames are coded on a thread of their own while the loop draws the next
/// one, and written on another while the next is coded: at most one frame
/// coded and one written at a time, so no more is queued than the terminal
/// has taken and one frame more (`@unchecked Sendable`: what those threads
/// touch, the kitty encoder's state and the byte counts, the loop's thread
/// touches only while no frame is in flight).
public final class TerminalBackend: LiveBackend, @unchecked Sendable {
    public private(set) var scale: Double
    public let pacesItself = false
    public let printsStatus = true
    /// How frames are sent.
    public private(set) var graphics: TerminalGraphics
    /// Bytes written for each frame presented, in order (the benchmark reads them once ``restore()`` has run).
    public private(set) var bytesPerFrame: [Int] = []

    private let input: Int32, output: Int32
    private let interrupt: Int32?
    private var saved = termios()
    private var restored = false
    private var parser = TerminalInputParser()
    private var queued: [LiveInput] = []
    private let stage: Rect
    private var columns = 80, rows = 24
    private var cell = (width: 10, height: 20)
    private var halfBlocks = HalfBlockEncoder()
    /// Touched by the writer's frames, and by this thread only while none is in flight.
    private var kitty = KittyEncoder(medium: .direct)
    /// Codes frames, one at a time, off the loop's thread; writes them, one at a time, off the coder's.
    private let coder = DispatchQueue(label: "org.segue.show.terminal-coder")
    private let writer = DispatchQueue(label: "org.segue.show.terminal-writer")
    /// A frame handed over and not yet coded; a frame coded and not yet written.
    private let inFlight = DispatchGroup(), writing = DispatchGroup()
    private var clearNext = true
    /// A frame's synchronized update was begun and its end not yet written (a write cut short).
    private var updating = false
    private var lastStatus = ""

    /// Takes over the terminal on `input`/`output` for a stage of `stage` points.
    /// - Parameters:
    ///   - graphics: forced, or nil to ask the terminal.
    ///   - interrupt: a descriptor that becomes readable when the view must end (a signal pipe).
    /// - Throws: ``TerminalError`` when they are not a terminal.
    public init(input: Int32 = 0, output: Int32 = 1, stage: Rect, graphics: TerminalGraphics? = nil,
                interrupt: Int32? = nil) throws(TerminalError) {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw TerminalError(description: "standard input and output are not a terminal")
        }
        (self.input, self.output, self.interrupt, self.stage) = (input, output, interrupt, stage)
        guard tcgetattr(input, &saved) == 0 else {
            throw TerminalError(description: "cannot read the terminal's settings: \(Errno.current)")
        }
        var raw = saved
        cfmakeraw(&raw)
        // Keep output processing off too (cfmakeraw does), reads return what is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else {
            throw TerminalError(description: "cannot put the terminal in raw mode: \(Errno.current)")
        }
        scale = 1
        self.graphics = .halfBlocks
        self.graphics = graphics ?? detect()
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h\u{1B}[2J")
        measure()
    }

    deinit { restore() }

    /// Gives the terminal back as it was; safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        inFlight.wait()
        writing.wait()
        if graphics == .kitty { write("\u{1B}_Ga=d,d=A,q=2\u{1B}\\") }
        // The end of an update only when one was cut short: kitty logs an end with none begun.
        write((updating ? "\u{1B}[?2026l" : "") + "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSANOW, &saved)
        kitty.removeObjects()
    }

    // MARK: - Asking the terminal

    /// Asks what the terminal can show: a kitty graphics query, another
    /// through shared memory (does the terminal share this machine?), the cell
    /// size (`CSI 16 t`) and the primary device attributes (`CSI c`, which
    /// every terminal answers, last); `4` among those means sixel. Without an
    /// answer in half a second, `$TERM` decides.
    private func detect() -> TerminalGraphics {
        let environment = ProcessInfo.processInfo.environment
        // Under tmux or screen, graphics need passthrough: half-blocks are safe.
        if environment["TMUX"] != nil || environment["TERM"]?.hasPrefix("screen") == true { return .halfBlocks }
        let probe = "/segue-probe-\(getpid())"
        let shared = KittyEncoder.share([0, 0, 0], as: probe)
        defer { if shared { shm_unlink(probe) } }
        write("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
              + (shared ? "\u{1B}_Gi=32,s=1,v=1,a=q,t=s,f=24,S=3;\(Data(probe.utf8).base64EncodedString())\u{1B}\\" : "")
              + "\u{1B}[16t\u{1B}[c")
        let deadline = MonotonicTime.now + 0.5
        var kittyOK = false, sixel = false, answered = false
        while !answered {
            guard let bytes = readInput(until: deadline) else { break }
            for event in parser.parse(bytes, final: false) {
                switch event {
                case .reply(let reply):
                    let text = String(decoding: reply, as: UTF8.self)
                    if text.hasPrefix("\u{1B}_Gi=31;") { kittyOK = text.contains(";OK") }
                    if text.hasPrefix("\u{1B}_Gi=32;"), text.contains(";OK") { kitty.medium = .sharedMemory }
                    if text.hasPrefix("\u{1B}[6;"), text.hasSuffix("t") {
                        let n = text.dropFirst(4).dropLast().split(separator: ";").compactMap { Int($0) }
                        if n.count == 2, n[0] > 0, n[1] > 0 { cell = (n[1], n[0]) }
                    }
                    if text.hasPrefix("\u{1B}[?"), text.hasSuffix("c") {
                        sixel = text.dropFirst(3).dropLast().split(separator: ";").contains("4")
                        answered = true
                    }
                default:
                    queue(event)
                }
            }
        }
        if kittyOK { return .kitty }
        if sixel { return .sixel }
        if !answered, environment["TERM"] == "xterm-kitty" { return .kitty }
        return .halfBlocks
    }

    /// Bytes from the terminal, waiting until `deadline`; nil when none came.
    private func readInput(until deadline: Double) -> [UInt8]? {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        guard (try? SystemCall.poll(&fds, until: deadline)) ?? 0 > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { (try? SystemCall.read(input, into: $0)) ?? 0 }
        return n > 0 ? Array(buffer[..<n]) : nil
    }

    /// The terminal's size and the scale that fits the stage in all but its last line.
    private func measure() {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 1 {
            (columns, rows) = (Int(size.ws_col), Int(size.ws_row))
            if size.ws_xpixel > 0, size.ws_ypixel > 0, graphics != .halfBlocks {
                cell = (max(Int(size.ws_xpixel) / columns, 1), max(Int(size.ws_ypixel) / rows, 1))
            }
        }
        let (width, height) = pixelArea
        scale = max(min(Double(width) / stage.width, Double(height) / stage.height), 0.01)
    }

    /// The pixels frames may fill: every line but the status line.
    private var pixelArea: (Int, Int) {
        switch graphics {
        case .halfBlocks: (columns, (rows - 1) * 2)
        case .sixel, .kitty: (columns * cell.width, (rows - 1) * cell.height)
        }
    }

    // MARK: - LiveBackend

    public func events(waitingUntil deadline: Double) -> [LiveInput] {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if let interrupt { fds.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
        while queued.isEmpty, (try? SystemCall.poll(&fds, until: max(deadline, MonotonicTime.now))) ?? 0 > 0 {
            if fds.count > 1, fds[1].revents != 0 { queued.append(.close); break }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { queued.append(.close); break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { (try? SystemCall.read(input, into: $0)) ?? 0 }
            if n <= 0 { break }
            for event in parser.parse(Array(buffer[..<n])) { queue(event) }
        }
        // A resize: measure again and draw everything anew.
        let before = (columns, rows)
        measure()
        if before != (columns, rows) { clearNext = true }
        defer { queued = [] }
        return queued
    }

    private func queue(_ event: TerminalInputParser.Event) {
        switch event {
        case .key(let key): queued.append(.key(key))
        case .interrupt: queued.append(.close)
        case .reply: break
        case .mouse(let phase, let column, let row):
            // The centre of the cell, in stage points.
            let (x, y): (Double, Double) = switch graphics {
            case .halfBlocks: (Double(column) - 0.5, Double(row * 2 - 1))
            case .sixel, .kitty: ((Double(column) - 0.5) * Double(cell.width), (Double(row) - 0.5) * Double(cell.height))
            }
            queued.append(.pointer(phase, x: x / scale, y: y / scale, time: MonotonicTime.now))
        }
    }

    /// What a frame's writer codes, taken from the canvas before the loop draws the next frame into it.
    private enum Pixels {
        case none, sixel(PackedPixels), kitty(PackedPixels)
    }

    /// Shows `canvas`: the part a terminal's encoder needs is copied out here, and the coding happens on
    /// the coder's thread while the loop draws the next frame, the writing on the writer's while the
    /// next is coded. A frame waits for the one before to be coded (the time returned), and a coded
    /// frame for the terminal to have taken the one before.
    public func present(_ canvas: Canvas, damage: PixelRect, status: String) -> Double {
        let started = MonotonicTime.now
        inFlight.wait()
        let waited = MonotonicTime.now - started
        var head = Array("\u{1B}[?2026h".utf8)
        var damage = damage
        let cleared = clearNext
        if clearNext {
            head += Array("\u{1B}[0m\u{1B}[2J".utf8)
            if graphics == .kitty { head += Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8) }
            halfBlocks.reset()
            damage = PixelRect(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
            clearNext = false
            lastStatus = ""
        }
        var pixels = Pixels.none
        switch graphics {
        case .halfBlocks: halfBlocks.encode(canvas, damage: damage, into: &head)
        case .sixel:
            if let area = SixelEncoder(cellWidth: cell.width, cellHeight: cell.height).region(damage, width: canvas.width, height: canvas.height) {
                pixels = .sixel(PackedPixels(canvas, area: area))
            }
        case .kitty:
            // The kitty encoder's state is settled: no frame is in flight.
            if cleared || kitty.needsFrame(damage) {
                pixels = .kitty(PackedPixels(canvas, area: PixelRect(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)))
            }
        }
        var tail: [UInt8] = []
        if status != lastStatus {
            // Already escaped by the session; cut to the line.
            tail += Array("\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[2K\(String(status.prefix(columns - 1)))".utf8)
            lastStatus = status
        }
        tail += Array("\u{1B}[?2026l".utf8)
        let cell = self.cell
        inFlight.enter()
        coder.async { [self, head, pixels, tail] in
            var out = head
            switch pixels {
            case .none: break
            case .sixel(let packed): SixelEncoder(cellWidth: cell.width, cellHeight: cell.height).encode(packed, into: &out)
            case .kitty(let packed):
                if cleared { kitty.reset() }
                kitty.encode(packed, into: &out)
            }
            out += tail
            // The terminal takes frames in turn: this one once it has the one before.
            writing.wait()
            writing.enter()
            inFlight.leave()
            writer.async { [self, out] in
                bytesPerFrame.append(out.count)
                updating = true
                updating = out.withUnsafeBytes { (try? SystemCall.write(output, $0)) == nil }
                writing.leave()
            }
        }
        return waited
    }

    private func write(_ text: String) {
        Array(text.utf8).withUnsafeBytes { try? SystemCall.write(output, $0) }
    }
}
