import Foundation

/// Things a test run builds once and every test then shares (a fixture
/// program, say), by name: the first test to ask makes it, a test asking
/// meanwhile waits for it, and a failure is every asker's. Thread-safe; the
/// values live as long as the run.
public final class OncePerRun<Value>: @unchecked Sendable {
    private var made: [String: Result<Value, Error>] = [:]
    private let lock = NSLock()

    public init() {}

    /// The value made for `name`, made now by `make` if none was.
    public func value(_ name: String, _ make: () throws -> Value) throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let done = made[name] { return try done.get() }
        let result = Result { try make() }
        made[name] = result
        return try result.get()
    }
}
