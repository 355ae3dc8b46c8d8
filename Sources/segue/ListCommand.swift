import Foundation
import HostContainer
import PluginHost
import Timing

/// `segue list`: what the plugin folders hold, and what was rejected, with why.
enum ListCommand {
    static let about = """
    Examines every .so file in the plugin folders and lists the animators found
    (name, id, version, parameters, file) and the files rejected, with why.
    Files are examined in a scanner process (with --isolation none, in this
    one), and what was learned is cached (see SEGUE_REGISTRY_CACHE in
    docs/isolation.md), so a file is examined again only when it changed.
    Exits 0 when the folders could be examined, whatever they held. Without
    --config, the folders are those the desktop's hosts search: the standard
    config's "plugins" are among them when there is one.
    """

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.list) else { return .success }
        try args.refuse("--names", with: ["--json"])
        // The standard config's "plugins" are searched as the desktop's hosts search them.
        // A broken standard config stops neither the listing nor the completions that read it, as it stops no host.
        guard let (source, config) = try args.desktopConfig() else { return .failure }
        let registry = try PluginFolders.registry(args, config: config)
        if args.has("--names") {
            for animator in registry.animators { printNow(animator.name) }
        } else if args.has("--json") {
            print(jsonLine(Listing(registry, config: source.file)))
        } else {
            printHuman(registry, config: source)
        }
        return .success
    }

    private static func printHuman(_ registry: AnimatorRegistry, config: ConfigSource) {
        print("Searched, in order:")
        for folder in Listing.Folder.all(registry) {
            let state = folder.state == "searched" ? "\(folder.files) .so file\(folder.files == 1 ? "" : "s")" : folder.state
            print("  \(folder.path) (\(folder.origin)): \(state)")
        }
        print("Config: \(config)")
        print("Sandbox: \(registry.confinement.summary)")
        for warning in registry.warnings { print("warning: \(warning)") }
        print("\nAnimators (\(registry.animators.count)):")
        for a in registry.animators {
            print("  \(a.name) \(a.version)  \(a.id)\n    \(a.summary)\n    file: \(a.file)")
            // Switches only, as every animator before ABI 1.3, is the common case: said by saying nothing.
            if a.kinds != .switches {
                print("    written for: \(a.kinds)")
                let ways = TransitionKind.allCases.map { ($0, KindPlayback.way(kinds: a.kinds, playing: $0)) }
                if ways.contains(where: { $0.1 != .asWritten }) {
                    print("    plays: " + ways.map { "\($0.0.key) \($0.1)" }.joined(separator: "; "))
                }
            }
            for p in a.parameters {
                print("    - \(p.name): \(Listing.Parameter(p).type) = \(Listing.Parameter(p).defaultText), \(p.explanation)")
            }
        }
        print("\nRejected (\(registry.rejections.count)):")
        for r in registry.rejections { print("  \(r.file)\n    \(r.reason)") }
    }

    struct Listing: Encodable {
        struct Animator: Encodable {
            let name, id, version, description, file: String
            let parameters: [Parameter]
            /// The kinds of transition it was written for: "switch", "appear", "disappear".
            let kinds: [String]
            /// How it plays each kind, by the kinds it declares.
            let plays: Plays
        }
        /// How an animator plays each kind of transition ("as written", "as a
        /// disappearance run backwards", ...): docs/abi.md's table, by
        /// ``KindPlayback/way(kinds:playing:)``.
        struct Plays: Encodable {
            let `switch`, appear, disappear: String

            init(_ kinds: TransitionKinds) {
                func way(_ kind: TransitionKind) -> String { KindPlayback.way(kinds: kinds, playing: kind).description }
                (`switch`, appear, disappear) = (way(.switch), way(.appear), way(.disappear))
            }
        }
        /// A parameter as configs write it: a choice's default by its name, a
        /// boolean's as true or false; a range only for numbers.
        struct Parameter: Encodable {
            let name, type, explanation: String
            let `default`: JSONParameter
            let min, max: Double?
            let choices: [String]?

            init(_ p: ParameterDescriptor) {
                (name, explanation, `default`) = (p.name, p.explanation, JSONParameter(p.configValue(p.defaultValue)))
                type = p.kind.label
                switch p.kind {
                case .number, .integer: (min, max, choices) = (p.minimum, p.maximum, nil)
                case .boolean, .curve: (min, max, choices) = (nil, nil, nil)
                case .choice(let c): (min, max, choices) = (nil, nil, c)
                }
            }

            var defaultText: String {
                if let choices { return "\(`default`.value) of \(choices.joined(separator: ", "))" }
                guard let min, let max else { return "\(`default`.value)" }
                return "\(`default`.value) in [\(ParameterValue.number(min)), \(ParameterValue.number(max))]"
            }
        }
        struct Rejected: Encodable { let file, reason: String }
        struct Folder: Encodable {
            let path, origin, state: String
            let files: Int

            static func all(_ registry: AnimatorRegistry) -> [Folder] {
                registry.searched.map { searched in
                    let origin = searched.folder.origin == .given ? "--plugins" : searched.folder.origin.rawValue
                    switch searched.state {
                    case .searched(let files): return Folder(path: searched.folder.path, origin: origin, state: "searched", files: files)
                    case .missing: return Folder(path: searched.folder.path, origin: origin, state: "missing", files: 0)
                    case .notAFolder: return Folder(path: searched.folder.path, origin: origin, state: "not a folder", files: 0)
                    case .unreadable: return Folder(path: searched.folder.path, origin: origin, state: "unreadable", files: 0)
                    }
                }
            }
        }

        var version = 1
        /// The config whose "plugins" were searched: a file, or the built-in scene's label.
        let config: String
        let animators: [Animator]
        let rejected: [Rejected]
        let folders: [Folder]
        let warnings: [String]
        let scanned: Int
        let sandbox: Sandbox

        /// What confines plugin code: `isolation`, `mode` ("strict", "off";
        /// "none" in process), `landlock` (the ABI version, 0 for none),
        /// `seccomp`, `limits` (`memory` in bytes, `descriptors`, `threads`, `core`);
        /// what the kernel lacks is among the warnings.
        struct Sandbox: Encodable {
            struct Limits: Encodable {
                let memory: UInt64
                let descriptors: Int
                let threads: Int
                var core = 0
            }
            let isolation, mode: String
            let landlock: Int
            let seccomp: Bool
            let limits: Limits?

            init(_ c: PluginConfinement) {
                let confined = c.isolation == .process && c.policy.mode == .strict
                isolation = c.isolation.rawValue
                mode = c.isolation == .none ? "none" : c.policy.mode.rawValue
                landlock = confined ? c.support.landlockABI : 0
                seccomp = confined && c.support.seccomp
                limits = confined ? Limits(memory: c.policy.memoryLimit, descriptors: PluginConfinement.descriptorLimit, threads: c.policy.threadLimit) : nil
            }
        }

        init(_ registry: AnimatorRegistry, config: String) {
            self.config = config
            animators = registry.animators.map {
                Animator(name: $0.name, id: $0.id, version: $0.version, description: $0.summary, file: $0.file,
                         parameters: $0.parameters.map(Parameter.init), kinds: $0.kinds.kinds.map(\.key), plays: Plays($0.kinds))
            }
            rejected = registry.rejections.map { Rejected(file: $0.file, reason: $0.reason) }
            folders = Folder.all(registry)
            warnings = registry.warnings
            scanned = registry.scannedCount
            sandbox = Sandbox(registry.confinement)
        }
    }
}
