import Foundation
import PluginRuntime
import SystemCalls

/// A worker process started but not yet told which plugin to serve.
struct IdleWorker: @unchecked Sendable {  // owned by one party at a time: the pool, then one PluginWorker
    let process: ChildProcess
    let channel: WorkerChannel
    let memory: SharedMemory

    /// Starts `segue-worker serve`; it waits for a ``WorkerOp/load`` request.
    static func start(settings: WorkerSettings) -> Result<IdleWorker, LoadFailure> {
        WorkerLayout.check()
        let executable: String
        switch settings.worker() {
        case .failure(let why): return .failure(why)
        case .success(let path): executable = path
        }
        guard let (host, worker) = WorkerChannel.pair(), let memory = SharedMemory(size: WorkerLayout.size) else {
            return .failure(LoadFailure("could not be started: \(Errno.current)"))
        }
        defer { worker.close() }
        do {
            let process = try ChildProcess(executable: executable, arguments: settings.sandbox.workerArguments + ["serve"],
                                           descriptors: [worker.descriptor, memory.descriptor], label: "a plugin worker",
                                           runsPluginCode: true, output: settings.output)
            return .success(IdleWorker(process: process, channel: host, memory: memory))
        } catch {
            host.close()
            return .failure(LoadFailure("could not be started: \(error)"))
        }
    }
}

/// The worker processes of one factory, one per plugin file (by path and
/// file identity: a replaced file gets a fresh worker), and its quarantine: a
/// worker that failed stays in the pool, failed, until it is cleared.
final class WorkerPool: @unchecked Sendable {
    let settings: WorkerSettings
    private let lock = NSLock()
    private struct Key: Hashable {
        var file: String, identity: FileIdentity
    }
    private var workers: [Key: PluginWorker] = [:]
    /// A worker started ahead of need.
    private var idle: IdleWorker?

    init(settings: WorkerSettings) { self.settings = settings }

    deinit { idle?.channel.close() }

    func worker(file: String, identity: FileIdentity) -> PluginWorker {
        let key = Key(file: file, identity: identity)
        return lock.withLock {
            if let known = workers[key] { return known }
            let worker = PluginWorker(file: file, settings: settings, pool: self)
            workers[key] = worker
            return worker
        }
    }

    /// Starts a worker that serves no plugin yet, unless one is waiting
    /// already, so that the next plugin to need a worker does not wait for a
    /// process to start (several milliseconds: the Swift runtime loads).
    func prestart() {
        guard lock.withLock({ idle == nil }), case .success(let started) = IdleWorker.start(settings: settings) else { return }
        let extra = lock.withLock { () -> IdleWorker? in
            if idle != nil { return started }
            idle = started
            return nil
        }
        extra?.channel.close()  // another thread's got there first: this one ends
    }

    /// The worker started ahead, if it is still alive.
    func takeIdle() -> Result<IdleWorker, LoadFailure>? {
        guard let waiting = lock.withLock({ () -> IdleWorker? in defer { idle = nil }; return idle }) else { return nil }
        guard waiting.process.termination == nil else {
            waiting.channel.close()
            return nil
        }
        return .success(waiting)
    }

    /// The process ids of the pool's workers that have started, for tests that check none is left behind.
    var processIDs: [Int32] {
        lock.withLock { workers.values.compactMap(\.processID) + (idle.map { [$0.process.pid] } ?? []) }
    }

    /// How every quarantined plugin failed.
    var quarantined: [PluginFailure] {
        lock.withLock { workers.values.compactMap(\.failure) }.sorted { $0.date < $1.date }
    }

    /// Forgets the workers of `file` as it was (`identity`): it changed or went
    /// away. Each one ends when the last transition using it lets it go.
    func retire(file: String, identity: FileIdentity) {
        lock.withLock { workers = workers.filter { $0.key.file != file || $0.key.identity != identity } }
    }

    /// Lets the plugins in `files` run again, in fresh workers.
    func clearQuarantine(files: Set<String>) {
        lock.withLock { workers = workers.filter { $0.value.failure == nil || !files.contains($0.value.file) } }
    }
}
