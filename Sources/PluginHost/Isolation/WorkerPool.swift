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
    /// Recursive: a worker the pool lets go of while it holds the lock (retire, clearQuarantine) releases its memory grant as it ends.
    private let lock = NSRecursiveLock()
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

    // MARK: - The memory all workers share

    /// What a worker serving a plugin was granted of ``SandboxPolicy/totalMemory``.
    private struct Grant {
        weak var worker: PluginWorker?
        var bytes: UInt64
        /// Since when no transition is in flight; nil while one is.
        var idleSince: Double?
    }
    private var grants: [ObjectIdentifier: Grant] = [:]

    /// Grants `worker`, about to start, its memory limit: at most the
    /// policy's, from what is left of the budget all the pool's workers
    /// share. When less than that is left, idle workers are ended to make
    /// room, oldest idle first; when none can be and less than the least a
    /// worker needs is left, the worker may not start. Call it with
    /// `worker`'s lock held (it is not ended here; others are tried, never waited for).
    /// - Returns: the bytes granted, or why none could be (to follow the animator's name).
    func reserve(for worker: PluginWorker) -> Result<UInt64, CallFailure> {
        let policy = settings.sandbox
        let want = min(policy.memoryLimit, policy.totalMemory)
        let least = min(SandboxPolicy.minimumMemoryLimit, want)
        var tried: Set<ObjectIdentifier> = []
        while true {
            let (granted, idle, busy) = lock.withLock { () -> (UInt64?, [PluginWorker], Int) in
                let used = grants.values.reduce(UInt64(0)) { $0 + $1.bytes }
                let left = policy.totalMemory > used ? policy.totalMemory - used : 0
                let idle = grants.filter { $0.value.idleSince != nil && !tried.contains($0.key) }
                    .sorted { $0.value.idleSince! < $1.value.idleSince! }.compactMap(\.value.worker)
                if left >= want || (idle.isEmpty && left >= least) {
                    let bytes = min(want, left)
                    grants[ObjectIdentifier(worker)] = Grant(worker: worker, bytes: bytes, idleSince: MonotonicTime.now)
                    return (bytes, [], 0)
                }
                return (nil, idle, grants.count)
            }
            if let granted { return .success(granted) }
            guard let oldest = idle.first else {
                let total = SandboxPolicy.formatted(policy.totalMemory)
                return .failure(CallFailure(message: "could not be started: the workers' memory budget of \(total) is in use by \(busy) worker\(busy == 1 ? "" : "s") in transitions (allow more with \"limits\": {\"totalMemory\": ...} in the config)"))
            }
            tried.insert(ObjectIdentifier(oldest))
            _ = oldest.endIfIdle()  // releases its grant when it ends; one busy now is passed over
        }
    }

    /// `worker`'s process ended: its grant is free again.
    func release(_ worker: ObjectIdentifier) {
        lock.withLock { _ = grants.removeValue(forKey: worker) }
    }

    /// `worker` has no transition in flight since `idleSince`, or (nil) has one.
    func mark(_ worker: ObjectIdentifier, idleSince: Double?) {
        lock.withLock { grants[worker]?.idleSince = idleSince }
    }

    /// The memory granted to the workers serving plugins, by plugin file, for tests.
    var granted: [String: UInt64] {
        lock.withLock { Dictionary(grants.values.compactMap { g in g.worker.map { ($0.file, g.bytes) } }, uniquingKeysWith: +) }
    }

    /// The process id of each plugin file's worker that runs, for tests.
    var processIDsByFile: [String: Int32] {
        let all = lock.withLock { Array(workers.values) }
        return Dictionary(all.compactMap { w in w.processID.map { (w.file, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The process ids of the pool's workers that have started, for tests that check none is left behind.
    var processIDs: [Int32] {
        // Each worker is asked outside the pool's lock: a worker holds its own while it takes the pool's.
        let (all, spare) = lock.withLock { (Array(workers.values), idle.map { [$0.process.pid] } ?? []) }
        return all.compactMap(\.processID) + spare
    }

    /// How every quarantined plugin failed.
    var quarantined: [PluginFailure] {
        lock.withLock { Array(workers.values) }.compactMap(\.failure).sorted { $0.date < $1.date }
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
