/// A config file that cannot be used: names the file, the key path, what was
/// expected and what was found.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The config file's path, or a label such as "<built-in scene>".
    public var file: String
    /// Where in the document, like `$.rules[2].animator`; `$` for the whole document.
    public var keyPath: String
    public var expected: String
    public var found: String

    public init(file: String, keyPath: String, expected: String, found: String) {
        self.file = file
        self.keyPath = keyPath
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(file): \(keyPath): expected \(expected), found \(found)" }
}
