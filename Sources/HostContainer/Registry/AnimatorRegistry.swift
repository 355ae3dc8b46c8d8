import Foundation

/// The animators available to a host: every plugin found in a list of
/// folders, each file either loaded or rejected with a reason.
///
/// Precedence is deterministic: folders in the order given, and within a folder
/// files by name. When two animators share an id or a short name, the first
/// found wins and the later one is rejected, naming the file that won.
/// A file reached twice (the same folder given twice, or a link) is read once.
public final class AnimatorRegistry: @unchecked Sendable {
    /// The folders searched, in order.
    public let folders: [String]
    /// The animators loaded, in precedence order.
    public private(set) var animators: [AnimatorDescriptor] = []
    /// The files, or animators within files, that were not loaded, with why.
    public private(set) var rejections: [PluginRejection] = []
    /// Problems with the folders themselves (missing, unreadable).
    public private(set) var warnings: [String] = []

    /// Scans `folders` for `.so` files and loads them.
    /// - Complexity: one `dlopen` per new file; a file already loaded in this
    ///   process is not opened again.
    public init(folders: [String]) {
        self.folders = folders
        var seenFiles: Set<String> = []
        for folder in folders {
            for file in sharedLibraries(in: folder) {
                let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
                guard seenFiles.insert(resolved).inserted else { continue }
                switch PluginLoader.load(path: file) {
                case .failure(let rejection): rejections.append(rejection)
                case .success(let found): for animator in found { register(animator) }
                }
            }
        }
    }

    /// The animator whose short name is `name`.
    public func animator(named name: String) -> AnimatorDescriptor? {
        animators.first { $0.name == name }
    }

    /// A loaded animator whose name differs from `name` only in case, for "did you mean".
    public func suggestion(for name: String) -> String? {
        animators.first { $0.name.lowercased() == name.lowercased() }?.name
    }

    private func register(_ animator: AnimatorDescriptor) {
        if let winner = animators.first(where: { $0.id == animator.id }) {
            rejections.append(PluginRejection(
                file: animator.file,
                reason: "duplicate id: animator '\(animator.id)' (\(animator.name)) is also provided by \(winner.file), which was found first and is used"))
        } else if let winner = animators.first(where: { $0.name == animator.name }) {
            rejections.append(PluginRejection(
                file: animator.file,
                reason: "duplicate short name: '\(animator.name)' (\(animator.id)) is also the name of \(winner.id) in \(winner.file), which was found first and is used"))
        } else {
            animators.append(animator)
        }
    }

    private func sharedLibraries(in folder: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            warnings.append("plugin folder \(folder) does not exist")
            return []
        }
        guard isDirectory.boolValue else {
            warnings.append("plugin folder \(folder) is not a folder")
            return []
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            warnings.append("plugin folder \(folder) cannot be read")
            return []
        }
        return names.filter { $0.hasSuffix(".so") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }
}
