import Glibc
import WorkerSandbox

/// What a worker's sandbox refused it, as its supervisor recorded it (in
/// the supervisor's own memory: see ``SandboxSupervisor``): counts are
/// clamped, text is cut and escaped.
package struct SandboxRecord: Equatable, Sendable {
    /// Refusals counted, including any past those described.
    package var count: Int
    /// The first refusals, in order.
    package var refusals: [SandboxRefusal]

    /// The words of `raw`.
    package init(copying raw: worker_sandbox_record_t) {
        count = Int(raw.count)
        let kept = min(count, Int(WORKER_SANDBOX_RECORDED))
        let rawRefusals = withUnsafeBytes(of: raw.refusals) { Array($0.bindMemory(to: worker_sandbox_refusal_t.self).prefix(kept)) }
        let limit = Int(raw.thread_limit)
        refusals = rawRefusals.map { SandboxRefusal($0, threadLimit: limit) }
    }

    /// The refusals after the first `seen`, in words: "tried to start a
    /// program (execve /bin/sh) and to open a network socket (socket AF_INET)";
    /// nil when there are none.
    package func attempts(after seen: Int = 0) -> String? {
        guard count > seen else { return nil }
        var distinct: [String] = []
        for refusal in refusals.dropFirst(seen) where !distinct.contains(refusal.description) { distinct.append(refusal.description) }
        let unnamed = count - seen - refusals.dropFirst(seen).count
        if unnamed > 0 { distinct.append("\(unnamed) more refused call(s)") }
        guard let first = distinct.first else { return nil }
        let rest = distinct.dropFirst()
        return "tried to " + first + (rest.isEmpty ? "" : " and to " + rest.joined(separator: " and to "))
    }
}

/// What a worker noted about its sandbox in the shared memory the plugin can
/// also write: copied, checked, and used for words only.
package struct SandboxNote: Equatable, Sendable {
    /// The address space in use when a fatal signal arrived (bytes), 0 if none did.
    package var addressSpaceAtFault: UInt64
    /// Whether the note is as a worker writes it: false when something wrote
    /// over it (a plugin that scribbled on its shared memory). A note with no
    /// sandbox entered (sandbox off) is intact while it holds nothing.
    package var isIntact: Bool

    /// Copies the note at ``WorkerLayout/sandbox`` in `memory`.
    package init(copyingFrom memory: SharedMemory) {
        self.init(copying: memory.base + WorkerLayout.sandbox)
    }

    /// Copies the note at `address`, which a plugin may have written.
    package init(copying address: UnsafeRawPointer) {
        var raw = worker_sandbox_note_t()
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: $0.count)) }
        addressSpaceAtFault = raw.address_space_at_fault
        isIntact = raw.reserved == 0 && (raw.magic == WORKER_SANDBOX_MAGIC || raw.magic == 0 && raw.address_space_at_fault == 0)
    }

    /// Whether a crash came at the memory limit: the address space in use
    /// was within a quarter of `limit` (a plugin that ran out is usually
    /// killed by the NULL an allocation returned, or aborts on it).
    package func ranOutOfMemory(limit: UInt64) -> Bool {
        limit > 0 && addressSpaceAtFault >= limit - limit / 4
    }
}

/// One system call the sandbox refused, and what it means in words.
package struct SandboxRefusal: Equatable, Sendable, CustomStringConvertible {
    /// The call's name ("execve"), or "system call N".
    package var call: String
    /// "start a program (execve /bin/sh)".
    package var description: String
    /// When it happened, for a scanner: its phase of loading.
    package var phase: LoadPhase?

    init(_ raw: worker_sandbox_refusal_t, threadLimit: Int) {
        let number = raw.number
        let arguments = withUnsafeBytes(of: raw.arguments) { Array($0.bindMemory(to: UInt64.self)) }
        let text = withUnsafeBytes(of: raw.text) { bytes in PluginText.escaped(bytes.prefix { $0 != 0 }) }
        phase = LoadPhase(rawValue: raw.during)
        let native = worker_sandbox_native_arch()
        if raw.arch != native || number & 0x4000_0000 != 0 {
            // Another architecture's numbering: this build's names would be wrong.
            let arch = worker_sandbox_arch_name(raw.arch, number).map { String(cString: $0) } ?? "another architecture"
            let entry = raw.arch == 0x4000_0003 ? ", int $0x80" : ""
            call = "\(arch) system call \(number & ~0x4000_0000)"
            description = "make a system call of another architecture (\(call)\(entry))"
            return
        }
        call = worker_sandbox_call_name(number).map { String(cString: $0) } ?? "system call \(number)"
        let pid = { (i: Int) in Int32(truncatingIfNeeded: arguments[i]) }
        let signal = { (i: Int) in Self.signalName(Int32(truncatingIfNeeded: arguments[i])) }
        let kind = arguments.withUnsafeBufferPointer { worker_sandbox_call_kind(number, $0.baseAddress) }
        switch kind {
        case WORKER_CALL_EXEC: description = "start a program (\(call) \(text))"
        case WORKER_CALL_PROCESS:
            description = call == "clone" ? "start a process (clone without CLONE_THREAD)" : "start a process (\(call))"
        case WORKER_CALL_TRACE:
            let target = call == "ptrace" ? "\(Self.ptraceRequest(arguments[0])), pid \(pid(1))" : "pid \(pid(0))"
            description = "trace or read another process (\(call) \(target))"
        case WORKER_CALL_SIGNAL:
            switch call {
            case "kill": description = "signal another process (kill pid \(pid(0)) with \(signal(1)))"
            case "tgkill": description = "signal another process (tgkill pid \(pid(0)) with \(signal(2)))"
            default: description = "signal another process (\(call))"
            }
        case WORKER_CALL_SOCKET: description = "open a socket (\(call) \(Self.family(arguments[0])))"
        case WORKER_CALL_NETWORK: description = "use the network (\(call))"
        case WORKER_CALL_OPEN: description = "open a file for writing (\(call) \(text))"
        case WORKER_CALL_IOCTL:
            description = "send a device or terminal request (ioctl \(Self.ioctlName(arguments[1])) on descriptor \(pid(0)))"
        case WORKER_CALL_LIMITS: description = "change another process's limits (\(call) pid \(pid(0)))"
        case WORKER_CALL_THREADS: description = "start more than \(threadLimit) threads (clone)"
        case WORKER_CALL_SIGNAL_OWNER:
            description = "direct signals at a process (fcntl \(Self.fcntlName(arguments[1])) on descriptor \(pid(0)))"
        case WORKER_CALL_LOCK:
            let command = call == "fcntl" ? "fcntl \(Self.fcntlName(arguments[1]))" : call
            description = "lock a file, which other processes see (\(command) on descriptor \(pid(0)))"
        case WORKER_CALL_PAGE_CACHE: description = "probe the page cache other processes share (\(call))"
        case WORKER_CALL_SHARED_FUTEX:
            description = "wake or wait on a futex other processes can share (\(call)\(call == "futex" ? " " + Self.futexName(arguments[1]) : ""))"
        case WORKER_CALL_PRIORITY: description = "change its scheduling priority (\(call))"
        case WORKER_CALL_KERNEL: description = "use a kernel facility no animator needs (\(call))"
        case WORKER_CALL_FILES: description = "change files (\(call))"
        default: description = "make a system call the sandbox does not allow (\(call))"
        }
    }

    private static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGSTOP: "SIGSTOP", SIGINT: "SIGINT",
                                      SIGHUP: "SIGHUP", SIGSEGV: "SIGSEGV", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", 0: "signal 0"]
        return names[signal] ?? "signal \(signal)"
    }

    private static func family(_ value: UInt64) -> String {
        let names: [UInt64: String] = [1: "AF_UNIX", 2: "AF_INET", 10: "AF_INET6", 16: "AF_NETLINK", 17: "AF_PACKET"]
        return names[value & 0xFFFF_FFFF] ?? "family \(value & 0xFFFF_FFFF)"
    }

    private static func ptraceRequest(_ value: UInt64) -> String {
        let names: [UInt64: String] = [0: "PTRACE_TRACEME", 1: "PTRACE_PEEKTEXT", 2: "PTRACE_PEEKDATA", 4: "PTRACE_POKETEXT",
                                      5: "PTRACE_POKEDATA", 16: "PTRACE_ATTACH", 0x4206: "PTRACE_SEIZE"]
        return names[value] ?? "request \(value)"
    }

    private static func fcntlName(_ value: UInt64) -> String {
        let names: [UInt64: String] = [5: "F_GETLK", 6: "F_SETLK", 7: "F_SETLKW", 8: "F_SETOWN", 10: "F_SETSIG", 15: "F_SETOWN_EX",
                                       36: "F_OFD_GETLK", 37: "F_OFD_SETLK", 38: "F_OFD_SETLKW", 1024: "F_SETLEASE", 1026: "F_NOTIFY"]
        return names[value & 0xFFFF_FFFF] ?? "command \(value & 0xFFFF_FFFF)"
    }

    private static func futexName(_ value: UInt64) -> String {
        let names: [UInt64: String] = [0: "FUTEX_WAIT", 1: "FUTEX_WAKE", 3: "FUTEX_REQUEUE", 4: "FUTEX_CMP_REQUEUE", 5: "FUTEX_WAKE_OP",
                                       6: "FUTEX_LOCK_PI", 9: "FUTEX_WAIT_BITSET", 10: "FUTEX_WAKE_BITSET"]
        return names[value & 0x7F] ?? "operation \(value & 0x7F)"
    }

    private static func ioctlName(_ value: UInt64) -> String {
        let request = value & 0xFFFF_FFFF
        return request == 0x5412 ? "TIOCSTI" : "0x" + String(request, radix: 16)
    }
}
