import Glibc
import WorkerSandbox

/// What confines plugin code in its worker and scanner processes. Before any
/// plugin code runs (constructors included), a worker drops every capability,
/// sets no-new-privileges, limits its address space, core files and
/// descriptors, enters a Landlock domain (read-only access to the plugin's
/// folder and the loader's libraries; no writes, no TCP, signals and abstract
/// sockets scoped) and installs a seccomp allow-list (threads yes, processes
/// no; no exec, ptrace, sockets or signals to other processes). What a plugin
/// tried and was refused is named in the report, as a crash is.
public struct SandboxPolicy: Sendable, Equatable {
    /// Whether workers confine plugin code.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// The default: every layer the kernel offers.
        case strict
        /// No confinement: a crash still costs only its transition, but a
        /// plugin can do whatever the user running Segue can.
        case off
    }

    /// Strict unless set otherwise.
    public var mode: Mode
    /// The address space a worker may use, in bytes (`RLIMIT_AS`), for the
    /// worker itself (about 100 MiB) and the plugin together.
    public var memoryLimit: UInt64
    /// The threads a worker may have at once, its own (two or three)
    /// included. The next one fails (`EAGAIN`, as at any limit) and the
    /// attempt is named; the host or scanner counts them, since no resource
    /// limit of the kernel bounds one process's threads.
    public var threadLimit: Int
    /// The address space all the workers of one player (one registry's
    /// factory) may use together, in bytes: each worker's limit is what is
    /// left of it, at most ``memoryLimit``; idle workers are ended to make
    /// room, oldest idle first, and a transition that finds none plays the
    /// built-in default, saying so. Strict sandbox only (off sets no limit).
    public var totalMemory: UInt64

    /// 4 GiB: four workers at the standard limit (four plugin files playing at once), or more that use less.
    public static let defaultTotalMemory: UInt64 = 4 << 30
    /// 1 GiB.
    public static let defaultMemoryLimit: UInt64 = 1 << 30
    /// The least a worker needs for itself: the Swift runtime and the shared memory.
    public static let minimumMemoryLimit: UInt64 = 256 << 20

    /// 64.
    public static let defaultThreadLimit = 64
    /// The fewest a worker may be given: its own threads and a plugin's one or two.
    public static let threadLimits = 8...4096

    /// The default policy: strict, 1 GiB a worker, 64 threads, 4 GiB for all workers together.
    public init(mode: Mode = .strict, memoryLimit: UInt64 = SandboxPolicy.defaultMemoryLimit,
                threadLimit: Int = SandboxPolicy.defaultThreadLimit, totalMemory: UInt64 = SandboxPolicy.defaultTotalMemory) {
        (self.mode, self.memoryLimit, self.threadLimit, self.totalMemory) = (mode, memoryLimit, threadLimit, totalMemory)
    }

    /// A memory size as people write it: `512M`, `512MiB`, `1G`, `1.5GiB`,
    /// `2048K`, or a number of bytes. K, M and G are powers of 1024.
    /// - Returns: bytes, or nil when `text` is not a size.
    public static func memory(_ text: String) -> UInt64? {
        let units: [(String, Double)] = [("GiB", 0x1p30), ("MiB", 0x1p20), ("KiB", 0x1p10), ("G", 0x1p30),
                                        ("M", 0x1p20), ("K", 0x1p10), ("B", 1), ("", 1)]
        let trimmed = text.trimmingSpaces
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count).trimmingSpaces), value.isFinite, value >= 0,
                  value * scale < 0x1p63 else { return nil }
            return UInt64(value * scale)
        }
        return nil
    }

    /// `bytes` for people: "1 GiB", "512 MiB", "1.5 GiB".
    public static func formatted(_ bytes: UInt64) -> String {
        for (unit, scale) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] as [(String, UInt64)] where bytes >= scale {
            let value = Double(bytes) / Double(scale)
            let text = value == value.rounded() ? "\(Int(value))" : "\((value * 10).rounded() / 10)"
            return "\(text) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// The worker's command-line options for this policy.
    package var workerArguments: [String] {
        mode == .off ? ["--sandbox", "off"] : ["--memory", "\(memoryLimit)", "--threads", "\(threadLimit)"]
    }

    /// The policy a worker was started with (``workerArguments``), and the other arguments.
    package static func parse(workerArguments arguments: [String]) -> (SandboxPolicy, rest: [String])? {
        var policy = SandboxPolicy(), rest: [String] = []
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--sandbox" where i + 1 < arguments.count:
                guard let mode = Mode(rawValue: arguments[i + 1]) else { return nil }
                policy.mode = mode
                i += 2
            case "--memory" where i + 1 < arguments.count:
                guard let bytes = UInt64(arguments[i + 1]) else { return nil }
                policy.memoryLimit = bytes
                i += 2
            case "--threads" where i + 1 < arguments.count:
                guard let count = Int(arguments[i + 1]), threadLimits.contains(count) else { return nil }
                policy.threadLimit = count
                i += 2
            default:
                rest.append(arguments[i])
                i += 1
            }
        }
        return (policy, rest)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// What confinement this kernel offers workers.
public struct SandboxSupport: Sendable, Equatable {
    /// The Landlock ABI version; 0 when the kernel has no Landlock (or it is disabled).
    public var landlockABI: Int
    /// Whether seccomp filters are available.
    public var seccomp: Bool

    /// This machine's kernel, asked once.
    public static let current = SandboxSupport(landlockABI: Int(worker_sandbox_landlock_abi()),
                                               seccomp: worker_sandbox_seccomp_available() != 0)

    /// What is missing and what that means, in one sentence; nil when nothing is.
    public var missing: String? {
        switch (landlockABI > 0, seccomp) {
        case (true, true): nil
        case (false, true):
            "this kernel has no Landlock: plugins can read and write your files (seccomp still refuses programs, processes, sockets, writes through open and signals to other processes)"
        case (true, false):
            "this kernel has no seccomp filters: plugins can start programs and processes, open sockets and signal other processes of yours (Landlock still refuses writes and reads outside the plugin's folder)"
        case (false, false):
            "this kernel has neither Landlock nor seccomp: plugins can read and write your files, start programs and signal other processes of yours"
        }
    }
}

/// The confinement a worker enters (worker side; see ``SandboxPolicy``).
package enum WorkerConfinement {
    /// What entering gave the worker.
    package struct Entered {
        /// What the kernel applied.
        package var support: SandboxSupport
        /// The descriptor on which every refused call, and each new thread
        /// under a limit, waits for its supervisor's answer (see
        /// ``SandboxSupervisor``); -1 without the seccomp filter. The worker
        /// hands it to its supervisor and closes it before plugin code runs.
        package var listener: Int32
    }

    /// Enters the sandbox of `policy`: reading allowed beneath `readable`,
    /// the sandbox and its faults noted in `note` (``WorkerLayout/sandbox``
    /// in the shared memory). Call it while the process has one thread,
    /// before any plugin code runs. `withoutFilter` is for a scanner, which
    /// forks a process per file that enters the whole sandbox and runs no
    /// plugin code itself; `ruleset`, one of ``prepareLandlock(readable:)``'s,
    /// is entered instead of a Landlock ruleset built here from `readable`.
    /// `ownNamespaces`: move into network and mount namespaces of its own
    /// first, its root holding only what it may read (false for a process
    /// forked from one that did). `supervisesProcesses`: a scanner, which
    /// counts the threads of the processes it forks through a /proc kept
    /// open for it, not in its view (so they see no other process).
    /// - Returns: what was applied, or why the sandbox could not be entered.
    package static func enter(_ policy: SandboxPolicy, readable: [String], note: UnsafeMutableRawPointer,
                              withoutFilter: Bool = false, ruleset: Int32 = -1, ownNamespaces: Bool = true,
                              supervisesProcesses: Bool = false) -> Result<Entered, SandboxError> {
        var applied = worker_sandbox_applied_t()
        var error = [CChar](repeating: 0, count: 512)
        let rc = withPaths(readable.map(absolute)) { list in
            var config = worker_sandbox_config_t(readable: list.baseAddress, readable_count: list.count,
                                                 memory_limit: policy.memoryLimit,
                                                 note: note.assumingMemoryBound(to: worker_sandbox_note_t.self),
                                                 thread_limit: UInt32(policy.threadLimit), without_filter: withoutFilter ? 1 : 0,
                                                 landlock_ruleset: ruleset, own_namespaces: ownNamespaces ? 1 : 0,
                                                 supervises_processes: supervisesProcesses ? 1 : 0)
            return worker_sandbox_enter(&config, &applied, &error, error.count)
        }
        guard rc == 0 else { return .failure(SandboxError(error)) }
        return .success(Entered(support: SandboxSupport(landlockABI: Int(applied.landlock_abi), seccomp: applied.seccomp != 0),
                                listener: applied.listener))
    }

    /// A Landlock ruleset made once for the processes this one forks later
    /// (reading beneath `readable` and the system's folders, no `/proc`),
    /// each of which then only enters it (``enter(_:readable:note:withoutFilter:ruleset:ownNamespaces:supervisesProcesses:)``).
    /// - Returns: its descriptor, or why there is none (no Landlock, say): the
    ///   processes then build their own.
    package static func prepareLandlock(readable: [String]) -> Result<Int32, SandboxError> {
        var error = [CChar](repeating: 0, count: 512)
        let fd = withPaths(readable) { worker_sandbox_prepare_landlock($0.baseAddress, $0.count, &error, error.count) }
        return fd >= 0 ? .success(fd) : .failure(SandboxError(error))
    }

    /// What the sandbox lets the code of plugin `file` read: the file's
    /// folder (resources it ships), and, when the file is a symbolic link, the
    /// file it leads to, that file alone (a link into a home folder must not
    /// open the home folder). Absolute when `file` is.
    package static func readable(forPlugin file: String) -> [String] {
        let slash = file.lastIndex(of: "/")
        let folder = slash.map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        var byte: CChar = 0
        // One readlink, which fails at once on anything but a link, spares a realpath per file.
        guard readlink(file, &byte, 1) >= 0, let resolved = realpath(file, nil) else { return [folder] }
        defer { free(resolved) }
        return [folder, String(cString: resolved)]
    }

    /// `path` from the current folder when it is relative: the sandbox's
    /// root is not the current folder's once its file view is entered.
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    private static func withPaths<R>(_ paths: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = paths.compactMap { strdup($0) }
        defer { copies.forEach { free($0) } }
        return copies.map { Optional(UnsafePointer($0)) }.withUnsafeBufferPointer(body)
    }
}

/// The supervisor's side of a sandboxed process (the host for a serving
/// worker, a scanner for the process it forked for one file): answers the
/// calls that wait on the process's listener, allowing threads under the
/// limit and refusing the rest, and keeps what was refused in this
/// process's own memory, which no plugin code can write. So a refusal is
/// always named, whatever the plugin does to its own memory afterwards.
/// One thread answers; any may read ``recorded``, which holds each refusal
/// from before its call returned in the process.
package final class SandboxSupervisor: @unchecked Sendable {
    private let record = UnsafeMutablePointer<worker_sandbox_record_t>.allocate(capacity: 1)

    package init() { record.initialize(to: worker_sandbox_record_t()) }
    deinit { record.deallocate() }

    /// Answers one call of process `pid` waiting on `listener`, the refusal
    /// (if it is one) marked `during` (a scanner's ``LoadPhase``, 0 otherwise).
    /// Call it from one thread at a time, when the listener is readable.
    /// - Returns: false when the listener is finished with (the process is gone).
    @discardableResult
    package func answer(_ listener: Int32, pid: Int32, threadLimit: Int, during: UInt32 = 0) -> Bool {
        worker_sandbox_answer(listener, pid, UInt32(threadLimit), during, record) >= 0
    }

    /// What was refused so far.
    package var recorded: SandboxRecord {
        var copy = worker_sandbox_record_t()
        worker_sandbox_copy_record(record, &copy)
        return SandboxRecord(copying: copy)
    }
}

/// The sandbox could not be entered; the worker then runs no plugin code.
package struct SandboxError: Error, CustomStringConvertible {
    package let reason: String
    init(_ error: [CChar]) { reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    package var description: String { "the sandbox could not be entered: \(reason)" }
}

/// Makes this process non-dumpable, once: other processes of its user (a
/// worker whose sandbox a kernel lacks, say) can then neither trace it nor
/// open its `/proc/PID/mem`. As ssh-agent does. Called before the first
/// worker starts.
package enum HostProtection {
    package static func makeUntraceable() { _ = once }
    private static let once: Void = { _ = worker_sandbox_make_host_untraceable() }()
}
