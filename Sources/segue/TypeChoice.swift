import Foundation
import HostConfig
import Renderer

/// The typeface a command that draws sets labels in: `--font`, else the
/// config's `"font"`, else DejaVu Sans. A font that cannot be used costs one
/// line naming where it was named and why, and the labels are drawn in the
/// standard typeface instead; without FreeType or DejaVu Sans, in the
/// built-in 5 x 7 font (said once).
enum TypeChoice {
    static let expected = "a font FreeType reads: a family fontconfig matches, or a font file"

    /// The typeface for `config` with `--font` given as `commandLine`, and
    /// the lines that say what could not be used (empty when all went well).
    static func typeface(commandLine: String?, config: SegueConfig) -> (typeface: Typeface?, problems: [String]) {
        var problems: [String] = []
        if let name = commandLine {
            let absolute = SegueConfig.namesFontFile(name) ? PluginFolders.absolute(name) : name
            switch Typeface.open(absolute) {
            case .success(let typeface): return (typeface, [])
            case .failure(let problem):
                problems.append("\(ConfigError(file: "the command line", keyPath: "--font", expected: expected, found: problem.description))")
            }
        } else if let font = config.font {
            switch Typeface.open(font.path) {
            case .success(let typeface): return (typeface, [])
            case .failure(let problem):
                problems.append("\(ConfigError(file: config.file, line: font.line, column: font.column, keyPath: font.keyPath, expected: expected, found: problem.description))")
            }
        }
        switch Typeface.standard {
        case .success(let standard):
            return (standard, problems.map { $0 + "; labels are drawn in DejaVu Sans" })
        case .failure(let problem):
            return (nil, problems + ["labels are drawn in the built-in 5 x 7 font: \(problem)"])
        }
    }

    /// ``typeface(commandLine:config:)`` for a command's `--font` and
    /// config, its problems printed (the 5 x 7 fallback once a process).
    static func typeface(_ args: Arguments, config: SegueConfig) -> Typeface? {
        let (typeface, problems) = typeface(commandLine: args.single("--font"), config: config)
        for line in problems where !(line.hasPrefix("labels are drawn in the built-in") && saidFallback) {
            printError("segue: \(line)")
        }
        if typeface == nil { saidFallback = true }
        return typeface
    }
    nonisolated(unsafe) private static var saidFallback = false
}
