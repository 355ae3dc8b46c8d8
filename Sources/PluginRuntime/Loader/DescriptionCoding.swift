import Timing

/// A compact, bounds-checked binary form of plugin descriptions: what a
/// scanner sends the host and what the registry cache keeps. Little-endian;
/// strings and arrays carry their counts, and a reader never trusts a count
/// past the bytes it has.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    package mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    package mutating func f64(_ v: Double) { u64(v.bitPattern) }
    package mutating func string(_ s: String) {
        u32(UInt32(s.utf8.count))
        bytes += s.utf8
    }
    package mutating func blob(_ b: some Collection<UInt8>) {
        u32(UInt32(b.count))
        bytes += b
    }
}

/// Reads what a ``ByteWriter`` wrote; every read throws ``Truncated`` past the end.
package struct ByteReader {
    private let bytes: [UInt8]
    package private(set) var offset: Int
    private let end: Int

    package struct Truncated: Error {}

    package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        (self.bytes, offset, self.end) = (bytes, start, min(end ?? bytes.count, bytes.count))
    }

    package var isAtEnd: Bool { offset >= end }

    private mutating func take(_ n: Int) throws(Truncated) -> Int {
        guard n >= 0, n <= end - offset else { throw Truncated() }
        defer { offset += n }
        return offset
    }

    package mutating func u8() throws(Truncated) -> UInt8 { bytes[try take(1)] }
    package mutating func u32() throws(Truncated) -> UInt32 {
        let at = try take(4)
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }
    package mutating func u64() throws(Truncated) -> UInt64 {
        let at = try take(8)
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
    }
    package mutating func f64() throws(Truncated) -> Double { Double(bitPattern: try u64()) }
    package mutating func string() throws(Truncated) -> String {
        let n = Int(try u32())
        let at = try take(n)
        return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
    }
    /// A count of items each at least `minimumSize` bytes long, checked against what is left.
    package mutating func count(minimumSize: Int) throws(Truncated) -> Int {
        let n = Int(try u32())
        guard n <= (end - offset) / max(minimumSize, 1) else { throw Truncated() }
        return n
    }
    package mutating func blob() throws(Truncated) -> ArraySlice<UInt8> {
        bytes[try span()]
    }
    /// Where the next blob or string is, skipped over without copying it.
    package mutating func span() throws(Truncated) -> Range<Int> {
        let n = Int(try u32())
        let at = try take(n)
        return at..<(at + n)
    }
}

extension PluginDescription {
    /// The binary form.
    package func encoded() -> [UInt8] {
        var w = ByteWriter()
        encode(into: &w)
        return w.bytes
    }

    package func encode(into w: inout ByteWriter) {
        w.u32(UInt32(animators.count))
        for a in animators {
            for s in [a.id, a.name, a.version, a.summary] { w.string(s) }
            w.u32(a.kinds.rawValue)
            w.u32(UInt32(a.parameters.count))
            for p in a.parameters {
                w.string(p.name)
                w.string(p.explanation)
                w.u8(p.kind.tag.rawValue)
                if case .choice(let choices) = p.kind {
                    w.u32(UInt32(choices.count))
                    for c in choices { w.string(c) }
                }
                w.f64(p.defaultValue)
                w.f64(p.minimum)
                w.f64(p.maximum)
            }
        }
    }

    /// Decodes the binary form; not validated (see ``validated()``).
    package init(decoding r: inout ByteReader) throws(ByteReader.Truncated) {
        var animators: [AnimatorDescription] = []
        for _ in 0..<(try r.count(minimumSize: 24)) {
            let (id, name, version, summary) = (try r.string(), try r.string(), try r.string(), try r.string())
            let kinds = TransitionKinds(declared: try r.u32())
            var parameters: [ParameterDescriptor] = []
            for _ in 0..<(try r.count(minimumSize: 33)) {
                let (pname, explanation) = (try r.string(), try r.string())
                guard let tag = ParameterDescriptor.Kind.Tag(rawValue: try r.u8()) else { throw ByteReader.Truncated() }
                var choices: [String] = []
                if tag == .choice {
                    for _ in 0..<(try r.count(minimumSize: 4)) { choices.append(try r.string()) }
                }
                let kind = ParameterDescriptor.Kind(tag, choices: choices)
                parameters.append(ParameterDescriptor(name: pname, explanation: explanation, kind: kind,
                                                      defaultValue: try r.f64(), minimum: try r.f64(), maximum: try r.f64()))
            }
            animators.append(AnimatorDescription(id: id, name: name, version: version, summary: summary, parameters: parameters,
                                                 kinds: kinds))
        }
        self.init(animators: animators)
    }
}

extension ScanResult {
    /// The binary form.
    package func encoded() -> [UInt8] {
        var w = ByteWriter()
        switch self {
        case .plugin(let description):
            w.u8(0)
            description.encode(into: &w)
        case .rejected(let reason, let inDescriptor):
            w.u8(1)
            w.u8(inDescriptor ? 1 : 0)
            w.string(reason)
        }
        return w.bytes
    }

    package init(decoding bytes: [UInt8]) throws(ByteReader.Truncated) {
        var r = ByteReader(bytes)
        switch try r.u8() {
        case 0: self = .plugin(try PluginDescription(decoding: &r))
        case 1:
            let inDescriptor = try r.u8() != 0
            self = .rejected(reason: try r.string(), inDescriptor: inDescriptor)
        default: throw ByteReader.Truncated()
        }
    }
}
