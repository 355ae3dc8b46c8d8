/// Text that came from a plugin (names, descriptions, decline reasons, log
/// messages, what it printed), made safe to print: control characters,
/// bidirectional controls, zero-width characters and line separators are
/// escaped, so plugin text can neither forge a report line, move the
/// terminal's cursor, nor make what a person reads differ from what it says
/// (Trojan Source, CVE-2021-42574); invalid UTF-8 becomes U+FFFD. Idempotent.
package enum PluginText {
    /// `bytes` decoded as UTF-8 with every character that can deceive escaped.
    package static func escaped(_ bytes: some Collection<UInt8>) -> String {
        escaped(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` with every control character (C0, DEL, C1), bidirectional
    /// control, zero-width character and line or paragraph separator escaped:
    /// `\n`, `\t`, `\r`, else `\u{202E}` style.
    package static func escaped(_ text: String) -> String {
        // Their UTF-8 starts with a byte below 0x20, 0x7F, 0xC2 (C1), 0xD8
        // (U+061C), 0xE2 (U+200B...U+2069) or 0xEF (U+FEFF).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF }),
              text.unicodeScalars.contains(where: isDeceptive) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where isDeceptive(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `s` is shown otherwise than it reads: a control character, a
    /// bidirectional control (U+061C, U+200E, U+200F, U+202A...U+202E,
    /// U+2066...U+2069), a zero-width character (U+200B...U+200D, U+2060,
    /// U+FEFF) or a line or paragraph separator (U+2028, U+2029).
    private static func isDeceptive(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}
