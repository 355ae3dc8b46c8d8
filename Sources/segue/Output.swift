import Foundation

// How the tool writes: lines for people on standard error and output, JSON lines for scripts.

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes a line to standard output at once: a report printed is never lost
/// to a buffer, whatever happens later.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// One line of JSON, keys sorted, for scripts.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
}
