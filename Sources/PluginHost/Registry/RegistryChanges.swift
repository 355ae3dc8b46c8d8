import Foundation
import PluginRuntime

/// What differs between a registry and the one that replaced it: which
/// animators came, changed or went, and which files are newly rejected.
public struct RegistryChanges: Sendable, Equatable {
    /// How one animator changed.
    public struct Change: Sendable, Equatable {
        /// What happened to the animator.
        public enum Kind: String, Sendable { case added, replaced, removed }
        public var kind: Kind
        /// The animator's short name.
        public var animator: String
        /// Its plugin file (for a removed animator, the file it came from).
        public var file: String
        /// For a removed animator: why it is gone, for its fallbacks' reasons.
        /// For a replaced one: a caveat, if any.
        public var why: String?
    }

    /// Animators added, replaced by a new build (or by another file), or removed; by name.
    public var animators: [Change] = []
    /// Files rejected now that were not rejected before, or for another reason.
    public var rejected: [PluginRejection] = []

    /// Nothing changed.
    public var isEmpty: Bool { animators.isEmpty && rejected.isEmpty }

    /// One line per change, for people.
    public var descriptions: [String] {
        animators.map { change in
            switch change.kind {
            case .added: "added \(change.animator) (\(change.file))"
            case .replaced: "replaced \(change.animator) by a new build (\(change.file))" + (change.why.map { "; \($0)" } ?? "")
            case .removed: "removed \(change.animator): \(change.why ?? change.file)"
            }
        } + rejected.map { "rejected \($0.file): \($0.reason)" }
    }

    /// No change.
    public init() {}

    /// What differs from `old` to `new`.
    init(from old: AnimatorRegistry, to new: AnimatorRegistry) {
        let before = Dictionary(old.animators.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.animators.map(\.name))
        let newRejections = Dictionary(new.rejections.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        for animator in new.animators {
            guard let earlier = before[animator.name] else {
                animators.append(Change(kind: .added, animator: animator.name, file: animator.file))
                continue
            }
            if earlier.file != animator.file || earlier.identity != animator.identity {
                // A library is never unloaded: in this process, the same path keeps its first build.
                let caveat = new.isolation == .none && earlier.file == animator.file
                    ? "with isolation none the build loaded first keeps running until this program restarts" : nil
                animators.append(Change(kind: .replaced, animator: animator.name, file: animator.file, why: caveat))
            }
        }
        for animator in old.animators where !after.contains(animator.name) {
            let why = if let rejection = newRejections[animator.file] {
                "its plugin \(animator.file) was rejected: \(rejection.reason)"
            } else if access(animator.file, F_OK) != 0 {
                "its plugin file \(animator.file) was removed"
            } else {
                "its plugin \(animator.file) no longer provides it"
            }
            animators.append(Change(kind: .removed, animator: animator.name, file: animator.file, why: why))
        }
        let known = Set(old.rejections.map { "\($0.file)\n\($0.reason)" })
        rejected = new.rejections.filter { !known.contains("\($0.file)\n\($0.reason)") }
    }
}

extension AnimatorRegistry {
    /// Searches the folders again (those of `searchPath`, or the same ones),
    /// with the same isolation and options: only files that changed are
    /// examined again. The new registry remembers why animators that went
    /// away are gone (``departure(of:)``), and workers of plugin files that
    /// changed or went away are retired once no transition uses them.
    /// This registry stays as it was, so transitions can go on with it until
    /// the new one replaces it.
    public func reloaded(searchPath: [PluginFolder]? = nil) -> (registry: AnimatorRegistry, changes: RegistryChanges) {
        let new = AnimatorRegistry(searchPath: searchPath ?? self.searchPath, factory: factory, options: options)
        let changes = RegistryChanges(from: self, to: new)
        var departures = self.departures.filter { new.animator(named: $0.key) == nil }
        for change in changes.animators where change.kind == .removed {
            departures[change.animator] = change.why
        }
        new.departures = departures
        let current = Set(new.animators.map { "\($0.file)|\($0.identity)" })
        for animator in animators where !current.contains("\(animator.file)|\(animator.identity)") {
            factory.retire(file: animator.file, identity: animator.identity)
        }
        return (new, changes)
    }

    /// Why the animator called `name` is gone, when a reload removed it.
    public func departure(of name: String) -> String? { departures[name] }
}
