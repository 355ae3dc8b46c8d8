import Foundation
import PluginRuntime
import SystemCalls

/// Learns what plugin files contain without mapping them into this process,
/// in the manner of GStreamer's plugin scanner: scanner processes
/// (`segue-worker scan`) examine each file in a sandboxed process of its own
/// (forked from the scanner, which runs no plugin code), which loads it,
/// calls its entry point and sends back its description; the host validates
/// it again. A file that crashes, exits, hangs (past ``WorkerDeadlines/scan``),
/// tries what the sandbox refuses or writes to standard output while it is
/// examined is rejected with the phase and what happened; the other files
/// are not touched by it.
package enum PluginScanner {
    /// Scans `files`, in parallel on up to two scanner processes. `check` is
    /// the host's own cheap check of a file (its ELF header, say), run before
    /// the file goes to a scanner: a file it rejects is not loaded. Each lane
    /// checks its next file while its scanner examines the current one.
    /// - Returns: one outcome per file, in the order given.
    /// The address space each of `lanes` scanners' processes may use: the
    /// worker limit, at most an equal share of ``SandboxPolicy/totalMemory``
    /// (and never less than a worker needs: lanes are fewer when it is small).
    static func memoryLimit(_ policy: SandboxPolicy, lanes: Int) -> UInt64 {
        min(policy.memoryLimit, max(policy.totalMemory / UInt64(max(lanes, 1)), SandboxPolicy.minimumMemoryLimit))
    }

    package static func scan(_ files: [String], settings: WorkerSettings,
                     check: @Sendable (String) -> PluginRejection? = { _ in nil }) -> [Result<PluginDescription, PluginRejection>] {
        guard !files.isEmpty else { return [] }
        let executable: String
        switch settings.worker() {
        case .failure(let why): return files.map { .failure(PluginRejection(file: $0, reason: "not scanned: \(why)")) }
        case .success(let path): executable = path
        }
        // A scanner may read what each file's plugin may read, and nothing else.
        let folders = Set(files.flatMap { WorkerConfinement.readable(forPlugin: WorkerConfinement.absolute($0)) }).sorted()
        // The memory workers share bounds scanning too: each lane's process for a file may use its share of it.
        var policy = settings.sandbox
        let lanes = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount), (files.count + 7) / 8,
                        max(1, Int(min(policy.totalMemory / SandboxPolicy.minimumMemoryLimit, 2))))
        policy.memoryLimit = Self.memoryLimit(policy, lanes: lanes)
        let arguments = policy.workerArguments + ["scan", "--deadline", "\(settings.deadlines.scan)"]
            + folders.flatMap { ["--read", $0] }
        let results = Results(count: files.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { _ in
            // Files a dead scanner was asked about but never started: asked again first.
            var retry: [Int] = []
            /// The next file of this lane that passes the host's check; those that fail it are done with.
            func nextLoadable() -> Int? {
                if !retry.isEmpty { return retry.removeFirst() }
                while let index = results.claim() {
                    guard let rejection = check(files[index]) else { return index }
                    results.set(index, .failure(rejection))
                }
                return nil
            }
            // Several questions in flight, each in its own slot, so that the
            // scanner finds the next one waiting when it answers one: no sleep
            // and wake-up between files. It answers in order.
            var scanner: Scanner?
            var asked: [(index: Int, slot: Int)] = []
            while true {
                while asked.count < Scanner.slots, let index = nextLoadable() {
                    let fresh = scanner == nil
                    if fresh {
                        scanner = Scanner(executable: executable, arguments: arguments, output: settings.output)
                        scanner?.setDeadline(Self.backstop(settings.deadlines.scan))
                    }
                    guard let s = scanner else {
                        results.set(index, .failure(PluginRejection(file: files[index], reason: "not scanned: the scanner process could not be started")))
                        continue
                    }
                    let slot = (0..<Scanner.slots).first { s in !asked.contains { $0.slot == s } }!
                    // Absolute: the scanner's root is its file view, not this process's current folder.
                    if s.send(WorkerConfinement.absolute(files[index]), slot: slot) {
                        asked.append((index, slot))
                    } else if fresh {
                        results.set(index, .failure(PluginRejection(file: files[index], reason: "not scanned: the scanner process stopped answering")))
                        scanner = nil
                    } else {
                        // It died on a file asked earlier (the wait below says which) or
                        // after its last answer: this one goes to a fresh scanner.
                        retry.insert(index, at: 0)
                        if asked.isEmpty { scanner = nil }
                        break
                    }
                }
                guard let s = scanner, !asked.isEmpty else {
                    if retry.isEmpty { break } else { continue }
                }
                let (index, slot) = asked.removeFirst()
                let (outcome, alive) = s.receive(about: files[index], slot: slot, deadline: Self.backstop(settings.deadlines.scan))
                results.set(index, outcome)
                if !alive {
                    // It ended while on this file: the others go to a fresh one.
                    retry = asked.map(\.index) + retry
                    asked.removeAll()
                    scanner = nil
                }
            }
        }
        return results.all
    }

    /// How long the host waits for a scanner's answer about one file: the
    /// scanner kills a file's process at `deadline`, so a scanner silent for
    /// longer than this is itself stuck.
    static func backstop(_ deadline: Double) -> Double { deadline + 2 }

    /// Outcomes filled in by the lanes, and the next file to claim.
    private final class Results: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var outcomes: [Result<PluginDescription, PluginRejection>?]
        private var next = 0
        init(count: Int) { outcomes = Array(repeating: nil, count: count) }
        func claim() -> Int? {
            lock.withLock {
                guard next < outcomes.count else { return nil }
                next += 1
                return next - 1
            }
        }
        func set(_ index: Int, _ outcome: Result<PluginDescription, PluginRejection>) { lock.withLock { outcomes[index] = outcome } }
        var all: [Result<PluginDescription, PluginRejection>] { lock.withLock { outcomes.map { $0! } } }
    }

    /// One scanner process.
    private final class Scanner {
        let process: ChildProcess
        let channel: WorkerChannel
        let memory: SharedMemory
        /// The scanner's program, for messages.
        let executable: String

        init?(executable: String, arguments: [String], output: PluginOutput) {
            guard let (host, worker) = WorkerChannel.pair(), let memory = SharedMemory(size: WorkerLayout.size) else { return nil }
            defer { worker.close() }
            guard let process = try? ChildProcess(executable: executable, arguments: arguments,
                                                  descriptors: [worker.descriptor, memory.descriptor], label: "the plugin scanner",
                                                  output: output) else {
                host.close()
                return nil
            }
            (self.process, channel, self.memory, self.executable) = (process, host, memory, executable)
        }

        deinit { channel.close() }

        /// Every wait has the same deadline: let the socket keep it.
        func setDeadline(_ seconds: Double) { channel.setReceiveTimeout(seconds) }

        /// How many questions may wait at once, each with its own slot of the text area.
        static let slots = WorkerLayout.scanSlots

        /// Answers taken so far; the scanner counts those it wrote at ``WorkerLayout/replies``.
        private var taken: UInt32 = 0

        /// Asks the scanner about `file`, its path and answer in text slot `slot`; false when it is gone.
        func send(_ file: String, slot: Int) -> Bool {
            memory.write([UInt8](file.utf8), at: WorkerLayout.scanSlot(slot), capacity: WorkerLayout.scanSlotCapacity)
                && channel.send(WorkerRequest(op: .scan, slot: UInt32(slot), length: UInt32(file.utf8.count)))
        }

        /// The outcome for `file`, the oldest question not yet answered (asked
        /// with ``send(_:slot:)`` in slot `slot`), and whether this scanner can
        /// go on. The scanner keeps each file's deadline itself (a file's
        /// process that takes longer is killed and the file rejected, naming
        /// the phase); `deadline` is this side's, for a scanner that stopped
        /// answering.
        func receive(about file: String, slot: Int, deadline: Double) -> (Result<PluginDescription, PluginRejection>, Bool) {
            func reject(_ reason: String, inDescriptor: Bool = false) -> Result<PluginDescription, PluginRejection> {
                .failure(PluginRejection(file: file, reason: reason, inDescriptor: inDescriptor))
            }
            // The scanner started on this file no later than now.
            let start = MonotonicTime.now
            var failure: WorkerChannel.Failure?
            while memory.loadAcquire(at: WorkerLayout.replies) == taken {
                // A reply only wakes: the count in shared memory says what is ready.
                switch channel.receiveReply(within: nil) {
                case .success: continue
                case .failure(.timedOut) where MonotonicTime.now - start < deadline: continue
                case .failure(let why): failure = why
                }
                // Answers written before the scanner ended still count.
                if memory.loadAcquire(at: WorkerLayout.replies) == taken { break }
                failure = nil
            }
            switch failure {
            case nil:
                taken &+= 1
                switch PluginBoundary.scanAnswer(in: memory, slot: slot) {
                case nil:
                    process.kill()
                    return (reject("not scanned: the scanner sent an unreadable answer about it"), false)
                case .rejected(let why)?: return (reject(why.description, inDescriptor: why.inDescriptor), true)
                case .plugin(let description)?: return (.success(description), true)
                }
            case .timedOut?:
                process.kill()
                return (reject("not scanned: the scanner did not answer within \(deadline.formatted()) s and was killed"), false)
            case .closed?:
                return (reject("not scanned: the scanner \((process.wait(seconds: 2) ?? process.kill())?.description ?? "stopped answering")"), false)
            case .malformed?:
                process.kill()
                return (reject("not scanned: the scanner broke its answer"), false)
            case .otherVersion(let version)?:
                process.kill()
                return (reject("not scanned: " + WorkerReply.mismatch(version, worker: executable)), false)
            }
        }
    }
}
