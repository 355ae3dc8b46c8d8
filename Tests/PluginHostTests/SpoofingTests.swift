import Foundation
import Testing
import TestSupport

/// Text a plugin supplies reads as it is: bidirectional controls, zero-width
/// characters and line separators are escaped wherever people see it (the
/// Trojan Source class, CVE-2021-42574), as control characters are, and a
/// line a worker prints is marked as its plugin's whatever it starts with.
@Suite struct SpoofingTests {
    /// The characters that make text read otherwise than it is, raw.
    static let deceptive: [Unicode.Scalar] = [
        "\u{202E}", "\u{202C}", "\u{2066}", "\u{2069}", "\u{061C}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{2028}",
    ]

    static func raw(_ text: String) -> [String] {
        deceptive.filter { c in text.unicodeScalars.contains(c) }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test(arguments: ["strict", "off"])
    func spoofingCharactersAreEscapedAndEveryPrintedLineIsThePlugins(_ sandbox: String) throws {
        let (folder, file) = try CPlugin.fixture("spoof-\(sandbox)", "ATTEMPT_SPOOF")
        let config = try IsolationTests.config(pluginsIn: folder)
        let environment = ["SEGUE_SANDBOX": sandbox]
        let listed = try runSegue(["list", "--config", config], environment: environment)
        let json = try runSegue(["list", "--json", "--config", config], environment: environment)
        let played = try runSegue(["run", "--config", config], environment: environment)
        let reports = try runSegue(["run", "--json", "--config", config], environment: environment)
        for (name, result) in [("list", listed), ("list --json", json), ("run", played), ("run --json", reports)] {
            #expect(result.status == 0, "\(name): \(result.err)")
            #expect(Self.raw(result.out).isEmpty && Self.raw(result.err).isEmpty,
                    "\(name) printed \(Self.raw(result.out + result.err)) raw")
            #expect(!result.err.split(separator: "\n").contains { $0.hasPrefix("segue: [error] /usr/lib/segue/plugins/libSpringSlide.so") },
                    "\(name): a worker's line passed for Segue's own: \(result.err)")
        }
        #expect(listed.out.contains(#"spoof a\u{202E}b\u{202C}c\u{2066}d\u{2069}e\u{61C}f\u{200B}g\u{200D}h\u{FEFF}i\u{2028}j"#), "\(listed.out)")
        #expect(played.out.contains(#"spoof a\u{202E}b"#) && played.out.contains(#"\u{2028}photo -> video: SpringSlide\u{202E}"#), "\(played.out)")
        #expect(played.err.contains("segue: plugin \(file): [error] /usr/lib/segue/plugins/libSpringSlide.so: forged"),
                "the worker's line is marked as the plugin's: \(played.err)")
    }
}
