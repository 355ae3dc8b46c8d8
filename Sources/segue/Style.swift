import Foundation

/// Colour for people at a terminal: PASS green, FAIL and errors red, WARN,
/// warnings and fallbacks yellow. Off when standard output is not a terminal,
/// when `NO_COLOR` is set and not empty (no-color.org) or `TERM` is `dumb`.
enum Style {
    static let enabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }()

    static func pass(_ text: String) -> String { paint(text, "32") }
    static func fail(_ text: String) -> String { paint(text, "31") }
    static func warn(_ text: String) -> String { paint(text, "33") }

    private static func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
