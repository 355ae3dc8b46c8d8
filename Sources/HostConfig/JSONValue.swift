import Foundation
import PluginRuntime
import Timing

/// A JSON document, kept untyped so that config errors can name the key
/// path, what was expected and what was found.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How the value reads in an error message: its type and a short rendering.
    var found: String {
        switch self {
        case .null: "null"
        case .bool(let b): "the boolean \(b)"
        case .number(let n): "the number \(ParameterValue.number(n))"
        case .string(let s): "the string \"\(PluginText.escaped(s.count > 40 ? s.prefix(40) + "..." : s))\""
        case .array(let a): "an array of \(a.count)"
        case .object: "an object"
        }
    }
}

/// A strict JSON reader (RFC 8259) that says where a problem is.
///
/// Duplicate keys, trailing commas, comments, leading zeros, a lone `-` and
/// anything after the document are errors; every number of the grammar is
/// read (`0e1`, `1e-400` as 0), and one beyond a `Double`'s range is an
/// error. Strings must be valid UTF-8 without raw control characters.
/// Linear in the document's size; nesting deeper than 512 is refused rather
/// than overflowing the stack. A UTF-8 byte order mark is skipped.
struct JSONReader {
    /// A syntax error: where (a byte offset), the key path to it, what was expected and found.
    struct SyntaxError: Error {
        var offset: Int
        var keyPath: String
        var expected: String
        var found: String
    }

    private enum Component {
        case key(String)
        case index(Int)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var path: [Component] = []
    private static let maximumDepth = 512

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The document `bytes` holds.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var reader = JSONReader(bytes)
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error(expected: "the end of the document") }
        return value
    }

    /// The byte offset of what `keyPath` (`$.rules[2].animator`) names in a
    /// valid document: the key, for an object member; the item, for an array's;
    /// for a missing key, the object that lacks it. Nil when the path cannot
    /// be read back.
    static func offset(of keyPath: String, in bytes: [UInt8]) -> Int? {
        guard let components = parsePath(keyPath) else { return nil }
        var reader = JSONReader(bytes)
        reader.skipSpace()
        return try? reader.find(components[...])
    }

    /// 1-based line and column (in characters) of byte `offset`.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (line, column)
    }

    // MARK: Values

    private mutating func value() throws(SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error(expected: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error(expected: "a value")
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        guard path.count < Self.maximumDepth else { throw error(expected: "at most \(Self.maximumDepth) levels of nesting") }
        index += 1
        var members: [String: JSONValue] = [:]
        var keyOffsets: [String: Int] = [:]
        skipSpace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(expected: members.isEmpty ? "a string key or '}'" : "a string key (no comma after the last member)")
            }
            let keyOffset = index
            let key = try string()
            if let first = keyOffsets[key] {
                let (line, column) = Self.lineAndColumn(of: first, in: bytes)
                index = keyOffset
                path.append(.key(key))
                throw error(expected: "each key once", found: "'\(PluginText.escaped(key))' again (first at line \(line), column \(column))")
            }
            keyOffsets[key] = keyOffset
            skipSpace()
            guard consume(UInt8(ascii: ":")) else { throw error(expected: "':' after the key") }
            skipSpace()
            path.append(.key(key))
            members[key] = try value()
            path.removeLast()
            skipSpace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else { throw error(expected: "',' or '}'") }
            skipSpace()
        }
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        guard path.count < Self.maximumDepth else { throw error(expected: "at most \(Self.maximumDepth) levels of nesting") }
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if consume(UInt8(ascii: "]")) { return .array(items) }
        while true {
            path.append(.index(items.count))
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error(expected: "a value (no comma after the last item)") }
            items.append(try value())
            path.removeLast()
            skipSpace()
            if consume(UInt8(ascii: "]")) { return .array(items) }
            guard consume(UInt8(ascii: ",")) else { throw error(expected: "',' or ']'") }
            skipSpace()
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= text.count, bytes[index..<index + text.count].elementsEqual(text) else {
            throw error(expected: "a value")
        }
        index += text.count
        return value
    }

    private mutating func number() throws(SyntaxError) -> Double {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, (48...57).contains(reader.bytes[reader.index]) { reader.index += 1 }
            return reader.index - from
        }
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if index < bytes.count, (48...57).contains(bytes[index]) { throw error(expected: "no leading zero in a number") }
        } else if digits(&self) == 0 {
            throw error(expected: "a digit")
        }
        if consume(UInt8(ascii: ".")), digits(&self) == 0 { throw error(expected: "a digit after the decimal point") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if digits(&self) == 0 { throw error(expected: "a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error(expected: "a number a double can hold (magnitude below 1.8e308)", found: "the number \(text)")
        }
        return value
    }

    private mutating func string() throws(SyntaxError) -> String {
        let open = index
        index += 1
        // Most strings have no escape: take them straight from the bytes.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard let decoded = String(validating: bytes[index..<end], as: UTF8.self) else {
                index = open
                throw error(expected: "a string of valid UTF-8", found: "bytes that are not UTF-8")
            }
            index = end + 1
            return decoded
        }
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else {
                index = open
                throw error(expected: "a string closed by '\"'", found: "the end of the document")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let decoded = String(validating: text, as: UTF8.self) else {
                    index = open
                    throw error(expected: "a string of valid UTF-8", found: "bytes that are not UTF-8")
                }
                return decoded
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error(expected: "an escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                            throw error(expected: "a low surrogate (\\uDC00-\\uDFFF) after a high one")
                        }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            index -= 6
                            throw error(expected: "a low surrogate (\\uDC00-\\uDFFF) after a high one")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        index -= 6
                        throw error(expected: "a high surrogate before a low one")
                    }
                    text.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    index -= 2
                    throw error(expected: "one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
            case 0..<0x20:
                throw error(expected: "no raw control character in a string (write it as an escape)")
            default:
                text.append(byte)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else { throw error(expected: "four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 48...57: UInt32(byte - 48)
        case 65...70: UInt32(byte - 55)
        case 97...102: UInt32(byte - 87)
        default: nil
        }
    }

    // MARK: Finding a key path again

    private mutating func find(_ components: ArraySlice<Component>) throws(SyntaxError) -> Int? {
        guard let first = components.first else { return index }
        switch (first, index < bytes.count ? bytes[index] : 0) {
        case (.key(let wanted), UInt8(ascii: "{")):
            let start = index
            index += 1
            skipSpace()
            while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let keyOffset = index
                let key = try string()
                skipSpace()
                _ = consume(UInt8(ascii: ":"))
                skipSpace()
                if key == wanted { return components.count == 1 ? keyOffset : try find(components.dropFirst()) }
                _ = try value()
                skipSpace()
                _ = consume(UInt8(ascii: ","))
                skipSpace()
            }
            return start
        case (.index(let wanted), UInt8(ascii: "[")):
            let start = index
            index += 1
            skipSpace()
            for _ in 0..<wanted {
                _ = try value()
                skipSpace()
                guard consume(UInt8(ascii: ",")) else { return start }
                skipSpace()
            }
            return try find(components.dropFirst())
        default:
            return nil
        }
    }

    /// `$.a[2].b` as components; nil for a path this reader did not write.
    private static func parsePath(_ keyPath: String) -> [Component]? {
        guard keyPath.hasPrefix("$") else { return nil }
        var components: [Component] = []
        var rest = keyPath.dropFirst()
        while let first = rest.first {
            if first == "." {
                rest = rest.dropFirst()
                let key = rest.prefix { $0 != "." && $0 != "[" }
                guard !key.isEmpty else { return nil }
                components.append(.key(String(key)))
                rest = rest.dropFirst(key.count)
            } else if first == "[" {
                guard let close = rest.firstIndex(of: "]"), let n = Int(rest[rest.index(after: rest.startIndex)..<close]) else { return nil }
                components.append(.index(n))
                rest = rest[rest.index(after: close)...]
            } else {
                return nil
            }
        }
        return components
    }

    // MARK: Helpers

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func error(expected: String, found: String? = nil) -> SyntaxError {
        SyntaxError(offset: index, keyPath: keyPathText, expected: expected, found: found ?? foundHere)
    }

    /// The key path being read, as config errors write it.
    private var keyPathText: String {
        path.reduce(into: "$") { text, component in
            switch component {
            case .key(let key): text += "." + PluginText.escaped(key)
            case .index(let i): text += "[\(i)]"
            }
        }
    }

    /// What is at the reading position, in words.
    private var foundHere: String {
        guard index < bytes.count else { return "the end of the document" }
        let byte = bytes[index]
        switch byte {
        case 0x0A: return "a line break"
        case 0x09: return "a tab"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return String(format: "the byte 0x%02X", byte)
        }
    }
}
