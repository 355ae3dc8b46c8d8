/// Turns the bytes a terminal sends into live-view input: keys (arrows as
/// `ESC [ C` / `ESC [ D` or `ESC O C` / `ESC O D`), Ctrl-C as a request to
/// end, SGR (1006) mouse reports `ESC [ < b ; x ; y M|m` as presses, drags
/// and releases of the first button at cell (x, y), 1-based. Keeps an
/// unfinished sequence for the next bytes; a lone `ESC` with nothing after
/// it is the Escape key.
struct TerminalInputParser {
    private var pending: [UInt8] = []

    /// What a mouse report says, in cells (1-based).
    enum Event: Equatable {
        case key(LiveKey)
        case mouse(PointerPhase, column: Int, row: Int)
        case interrupt
        /// A reply to a query: `ESC [ ... <final>` or `ESC _ ... ESC \`.
        case reply([UInt8])
    }

    /// The events in `bytes` (with what was left over before); `final`: no more bytes are on their way.
    mutating func parse(_ bytes: [UInt8], final: Bool = true) -> [Event] {
        pending += bytes
        var events: [Event] = []
        var i = 0
        let b = pending
        outer: while i < b.count {
            let c = b[i]
            if c == 0x1B {
                guard i + 1 < b.count else {
                    if final { events.append(.key(.escape)); i += 1 }
                    break
                }
                let next = b[i + 1]
                if next == UInt8(ascii: "["), i + 2 < b.count, b[i + 2] == UInt8(ascii: "M") {
                    // A mouse report in the older encoding (ESC [ M and three bytes, each 32 more than its
                    // value), which a terminal without SGR reports (mlterm) sends: never keys.
                    guard i + 5 < b.count else { break outer }
                    let (button, column, row) = (Int(b[i + 3]) - 32, Int(b[i + 4]) - 32, Int(b[i + 5]) - 32)
                    if button & 64 == 0, button & 0b11 != 1, button & 0b11 != 2 {
                        let phase: PointerPhase = button & 0b11 == 3 ? .up : button & 32 != 0 ? .moved : .down
                        events.append(.mouse(phase, column: column, row: row))
                    }
                    i += 6
                } else if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    // A control sequence: parameters, then a final byte in 0x40...0x7E.
                    var j = i + 2
                    while j < b.count, !(0x40...0x7E).contains(b[j]) || (j == i + 2 && b[j] == UInt8(ascii: "<")) { j += 1 }
                    guard j < b.count else { break outer }
                    let body = Array(b[(i + 2)...j])
                    events += Self.sequence(body, introducer: next)
                    i = j + 1
                } else if next == UInt8(ascii: "_") || next == UInt8(ascii: "P") {
                    // An application programme command or device control string, ended by ESC \.
                    var j = i + 2
                    while j + 1 < b.count, !(b[j] == 0x1B && b[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                    guard j + 1 < b.count else { break outer }
                    events.append(.reply(Array(b[i..<(j + 2)])))
                    i = j + 2
                } else {
                    events.append(.key(.escape))
                    i += 1
                }
            } else if c == 0x03 {
                events.append(.interrupt)
                i += 1
            } else if c < 0x80 {
                if c >= 0x20 && c < 0x7F { events.append(.key(.character(Character(Unicode.Scalar(c))))) }
                i += 1
            } else {
                // A multi-byte character: not a key the view knows; skip its bytes.
                i += 1
                while i < b.count, b[i] & 0xC0 == 0x80 { i += 1 }
            }
        }
        pending = Array(b[min(i, b.count)...])
        return events
    }

    private static func sequence(_ body: [UInt8], introducer: UInt8) -> [Event] {
        guard let final = body.last else { return [] }
        if introducer == UInt8(ascii: "O") || body.count == 1 {
            switch final {
            case UInt8(ascii: "C"): return [.key(.right)]
            case UInt8(ascii: "D"): return [.key(.left)]
            default: break
            }
        }
        if body.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            let numbers = String(decoding: body.dropFirst().dropLast(), as: UTF8.self).split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3 else { return [] }
            let (button, column, row) = (numbers[0], numbers[1], numbers[2])
            // Only the first button; 32 marks motion with it held.
            guard button & 0b11 == 0, button & 64 == 0 else { return [] }
            let phase: PointerPhase = final == UInt8(ascii: "m") ? .up : button & 32 != 0 ? .moved : .down
            return [.mouse(phase, column: column, row: row)]
        }
        return [.reply([0x1B, introducer] + body)]
    }
}
