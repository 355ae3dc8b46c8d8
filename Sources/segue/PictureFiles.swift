import Foundation
import HostConfig
import HostContainer
import Renderer

/// Picture files as the tool meets them: named by a config's children, or
/// given on the command line as children of their own (`preview --from
/// home.png`, `show a.png b.png`). The config checks that each is a file that
/// starts as a PNG or JPEG does; here they are decoded (once, by the
/// renderer's cache), so that a truncated file or a decompression bomb is
/// named with the config's key path before anything is drawn.
enum PictureFiles {
    static let expected = "a PNG or JPEG picture of at most \(ViewContent.maximumPicturePixels / 1_000_000) megapixels"

    /// What the renderer finds wrong with the pictures `config` names, one error each, placed in the file.
    static func problems(in config: SegueConfig) -> [ConfigError] {
        config.pictures.compactMap { use in
            guard case .failure(let problem) = PictureCache.shared.load(use.path) else { return nil }
            return ConfigError(file: use.origin ?? config.file, line: use.line, column: use.column, keyPath: use.keyPath,
                               expected: expected, found: "\(use.path): \(problem)")
        }
    }

    /// Whether a command-line operand names a picture file rather than a child.
    static func isPicture(_ operand: String) -> Bool {
        ["png", "jpg", "jpeg"].contains((operand as NSString).pathExtension.lowercased())
    }

    /// Picture files given on the command line, as children: each named
    /// after its file (made unique among the config's children) and showing
    /// it whole-frame (`cover`). `replacing`: they are the children (`show
    /// a.png b.png`); else they join the config's (`preview --from a.png`).
    struct Operands {
        /// Each file with the option or argument that gave it (for messages).
        let files: [(given: String, path: String)]
        let replacing: Bool

        init(_ files: [(given: String, file: String)], replacing: Bool) {
            self.files = files.map { ($0.given, PluginFolders.absolute($0.file)) }
            self.replacing = replacing
        }

        /// The name of the child showing each file in `config` (as ``applied(to:)`` made it), in the order of `files`.
        func names(in config: SegueConfig) -> [String] {
            files.map { file in config.children.last { $0.content == .picture(path: file.path, fit: .cover) }?.name ?? file.path }
        }

        /// `config` with the pictures as children.
        func applied(to config: SegueConfig) -> SegueConfig {
            guard !files.isEmpty else { return config }
            var adjusted = config
            adjusted.children = replacing ? [] : config.sceneChildren
            var taken = Set(adjusted.children.map(\.name))
            for (given, path) in files {
                let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                var name = stem.isEmpty ? "picture" : stem, k = 2
                while taken.contains(name) {
                    name = "\(stem)-\(k)"
                    k += 1
                }
                taken.insert(name)
                adjusted.children.append(SegueConfig.Child(name: name, content: .picture(path: path, fit: .cover)))
                adjusted.pictures.append(SegueConfig.DrawingUse(path: path, keyPath: given, origin: "the command line"))
            }
            return adjusted
        }
    }
}
