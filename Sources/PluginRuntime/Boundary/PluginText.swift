/// Text that came from a plugin (names, descriptions, decline reasons, log
/// messages, what it printed), made safe to print: control characters are
/// escaped, so plugin text can neither forge a report line nor move the
/// terminal's cursor, and invalid UTF-8 becomes U+FFFD. Idempotent.
package enum PluginText {
    /// `bytes` decoded as UTF-8 with every control character escaped.
    package static func escaped(_ bytes: some Collection<UInt8>) -> String {
        escaped(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` with every control character (C0, DEL, C1) escaped: `\n`, `\t`,
    /// `\r`, else `\u{1B}` style.
    package static func escaped(_ text: String) -> String {
        // C0 and DEL are single bytes; C1 controls are encoded 0xC2 0x80...0x9F.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
              text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where isControl(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }
}
