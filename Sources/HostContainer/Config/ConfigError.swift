/// A config file that cannot be used: names the file, the key path, what was
/// expected and what was found.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The config file's path, or a label such as "<built-in scene>".
    public var file: String
    /// Where in the document, like `$.rules[2].animator`; `$` for the whole document.
    public var keyPath: String
    /// What the key should hold, in words.
    public var expected: String
    /// What it holds, in words.
    public var found: String

    /// An error at `keyPath` of `file`.
    public init(file: String, keyPath: String, expected: String, found: String) {
        self.file = file
        self.keyPath = keyPath
        self.expected = expected
        self.found = found
    }

    /// `FILE: KEYPATH: expected X, found Y`.
    public var description: String { "\(file): \(keyPath): expected \(expected), found \(found)" }
}
