import PluginRuntime

/// A config file that cannot be used: names the file, the line and column,
/// the key path, what was expected and what was found.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The config file's path, or a label such as "<built-in scene>".
    public var file: String
    /// Where in the file, from 1; nil when the problem is not at one place
    /// (the file cannot be read) or the config was not read from text.
    public var line: Int?
    /// The column in ``line``, in characters from 1.
    public var column: Int?
    /// Where in the document, like `$.rules[2].animator`; `$` for the whole document.
    public var keyPath: String
    /// What the key should hold, in words.
    public var expected: String
    /// What it holds, in words (text from the file escaped).
    public var found: String

    /// An error at `keyPath` of `file`.
    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String, expected: String, found: String) {
        (self.file, self.line, self.column) = (file, line, column)
        (self.keyPath, self.expected, self.found) = (keyPath, expected, found)
    }

    /// `FILE:LINE:COLUMN: KEYPATH: expected X, found Y`, on one line, as
    /// compilers write it so that editors can jump there.
    public var description: String {
        let place = line.map { ":\($0):\(column ?? 1)" } ?? ""
        return PluginText.escaped("\(file)\(place): \(keyPath): expected \(expected), found \(found)")
    }
}
