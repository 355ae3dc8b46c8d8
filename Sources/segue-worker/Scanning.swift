import Glibc
import PluginRuntime
import ProcessShims
import SystemCalls
import Timing

/// `segue-worker scan`: examines each file the host names and answers a
/// ``ScanResult`` in its binary form, in the question's slot. Answers are
/// counted in shared memory; the host is woken only every few answers, or
/// when there is no question left to work on (see ``WorkerOp/scan``).
///
/// No plugin code runs in the scanner. It is a zygote: sandboxed once (no
/// capabilities, its limits, Landlock), it forks a process per file, which
/// closes every descriptor, unmaps the host's shared memory and enters the
/// whole sandbox before it loads the file; it answers in memory of its own
/// that no other file's process ever maps. So no two plugins share an
/// address space, and nothing about one file waits where another file's code
/// can reach it. The scanner keeps each process's deadline, its thread
/// limit, what it prints and how it ends, and says which phase it was in.
/// It has one thread, so that forking it is safe.
struct Scanning {
    let channel: WorkerChannel
    let memory: SharedMemory
    let policy: SandboxPolicy
    /// The folders the files lie beneath: the scanner may read them.
    let folders: [String]
    /// Seconds a file's process may take.
    let deadline: Double

    func run() -> Never {
        // The scanner counts its processes' threads through a /proc kept open for it: its view, which they
        // share, has no /proc (and each process's own sandbox none either).
        var confined: String?
        if policy.mode == .strict,
           case .failure(let error) = WorkerConfinement.enter(policy, readable: folders, note: memory.base + WorkerLayout.sandbox,
                                                              withoutFilter: true, supervisesProcesses: true) {
            confined = error.description
        }
        warmUp()
        var answered: UInt32 = 0, announced: UInt32 = 0
        func announce() {
            guard announced != answered else { return }
            channel.send(WorkerReply(status: WorkerReply.ok, value: answered))
            announced = answered
        }
        while true {
            var next = channel.receive(WorkerRequest.self, within: 0)
            if case .failure(.timedOut) = next {
                announce()  // nothing left to do: say what is ready before sleeping
                next = channel.receive(WorkerRequest.self, within: nil)
            }
            guard case .success(let request) = next else { break }
            guard request.op == WorkerOp.scan.rawValue, request.slot < WorkerLayout.scanSlots else { exit(2) }
            let slot = WorkerLayout.scanSlot(Int(request.slot))
            let path = String(decoding: memory.copy(at: slot, count: Int(request.length), capacity: 1 << 16), as: UTF8.self)
            let answer = confined.map { ScanResult.rejected(reason: "not examined: \($0)", inDescriptor: false).encoded() }
                ?? FileExamination(path: path, scanning: self).run()
            write(answer, in: slot)
            answered &+= 1
            memory.storeRelease(answered, at: WorkerLayout.replies)
            if answered &- announced >= WorkerLayout.scanBatch { announce() }
        }
        exit(0)
    }

    /// Runs, once, this process's own side of examining a file (a load that
    /// fails before any file is opened, a description encoded, decoded and
    /// validated), so that the Swift runtime's type metadata is made here and
    /// not again in every file's process, which starts as a copy of this one.
    /// No plugin code runs.
    private func warmUp() {
        _ = PluginLoader.load(path: "/nonexistent/examined-by-no-one.so", checked: true) { _ in }
        let parameters = ParameterDescriptor.Kind.Tag.allCases.map {
            ParameterDescriptor(name: "p", explanation: "", kind: .init($0, choices: ["a", "b"]), defaultValue: 0, minimum: 0, maximum: 1)
        }
        let description = PluginDescription(animators: [AnimatorDescription(id: "warm/1", name: "Warm", version: "1.0.0",
                                                                            summary: "", parameters: parameters)])
        for result in [ScanResult.plugin(description), .rejected(reason: "", inDescriptor: false)] {
            _ = try? ScanResult(decoding: result.encoded())
        }
        _ = PluginBoundary.validated(description)
        var loaded: [LoadedAnimator] = []
        loaded.reserveCapacity(2)
        withExtendedLifetime(loaded) {}
    }

    /// The Landlock rulesets of the files' processes, made once per folder
    /// (``WorkerConfinement/prepareLandlock(readable:)``): each process then
    /// only enters its own. A few are kept (each is a descriptor).
    final class Rulesets {
        private var made: [[String]: Int32] = [:]
        func ruleset(for folders: [String]) -> Int32 {
            if let known = made[folders] { return known }
            guard case .success(let fd) = WorkerConfinement.prepareLandlock(readable: folders) else { return -1 }
            if made.count >= 8, let evicted = made.popFirst() { close(evicted.value) }
            made[folders] = fd
            return fd
        }
    }
    let rulesets = Rulesets()

    /// Writes an answer (at most a slot's capacity: ``FileExamination/Area``)
    /// into the question's slot: its length, then its binary form.
    private func write(_ answer: [UInt8], in slot: Int) {
        let text = answer.prefix(WorkerLayout.scanSlotCapacity - 4)
        memory.base.storeBytes(of: UInt32(text.count), toByteOffset: slot, as: UInt32.self)
        _ = memory.write(Array(text), at: slot + 4, capacity: WorkerLayout.scanSlotCapacity - 4)
    }
}

/// One file examined in a process of its own (see ``Scanning``).
struct FileExamination {
    let path: String
    let scanning: Scanning

    /// The memory the file's process and the scanner share, and no one else:
    /// its phase, its sandbox record, its answer.
    enum Area {
        static let phase = 0
        static let note = 64
        static let answerLength = 4096
        static let answer = 4096 + 8
        static let capacity = WorkerLayout.scanSlotCapacity - 4
        static let size = answer + capacity
    }

    /// The answer, in its binary form.
    func run() -> [UInt8] {
        func rejected(_ reason: String) -> [UInt8] { ScanResult.rejected(reason: reason, inDescriptor: false).encoded() }
        guard let area = mmap(nil, Area.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), area != MAP_FAILED else {
            return rejected("not examined: no memory for its process (\(Errno.current))")
        }
        defer { munmap(area, Area.size) }
        guard let out = closeOnExecPipe(nonblockingRead: true), let err = closeOnExecPipe(nonblockingRead: true) else {
            return rejected("not examined: \(Errno.current)")
        }
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            [out.read, out.write, err.read, err.write].forEach { _ = close($0) }
            return rejected("not examined: \(Errno.current)")
        }
        let folders = WorkerConfinement.readable(forPlugin: path)
        let ruleset = scanning.policy.mode == .strict ? scanning.rulesets.ruleset(for: folders) : -1
        let pid = process_shims_fork_tied()
        if pid == 0 { examineHere(area: area, stdout: out.write, stderr: err.write, supervisor: pair[1], folders: folders, ruleset: ruleset) }
        [out.write, err.write, pair[1]].forEach { _ = close($0) }
        defer { [out.read, err.read, pair[0]].forEach { _ = close($0) } }
        guard pid > 0 else { return rejected("not examined: its process could not be started (\(Errno.current))") }
        return supervise(pid, area: area, stdout: out.read, stderr: err.read, supervisor: pair[0])
    }

    // MARK: - In the file's process

    /// Enters the sandbox, loads the file, writes the answer, exits.
    private func examineHere(area: UnsafeMutableRawPointer, stdout: Int32, stderr: Int32, supervisor: Int32,
                             folders: [String], ruleset: Int32) -> Never {
        // Nothing of the scanner's reaches plugin code: not the host's memory, not a descriptor but these
        // (and the Landlock ruleset, until it is entered).
        dup2(stdout, 1)
        dup2(stderr, 2)
        dup2(supervisor, 3)
        if ruleset >= 0 { dup2(ruleset, 4) }
        process_shims_close_from(ruleset >= 0 ? 5 : 4)
        munmap(scanning.memory.base, scanning.memory.size)
        if scanning.policy.mode == .strict {
            let entered = WorkerConfinement.enter(scanning.policy, readable: folders, note: area + Area.note, ruleset: ruleset >= 0 ? 4 : -1,
                                                  ownNamespaces: false)  // the scanner's, already its own
            if ruleset >= 0 { close(4) }
            switch entered {
            case .failure(let error):
                finish(ScanResult.rejected(reason: "not examined: \(error)", inDescriptor: false), in: area)
            case .success(let entered):
                process_shims_send_with_descriptor(3, [UInt8(1)], 1, entered.listener)
                if entered.listener >= 0 { close(entered.listener) }
            }
        }
        close(3)
        let loaded = PluginLoader.load(path: path, checked: true) { phase in
            area.storeBytes(of: phase.rawValue, toByteOffset: Area.phase, as: UInt32.self)
        }
        switch loaded {
        case .success(let animators): finish(.plugin(PluginDescription(animators: animators.map(\.description))), in: area)
        case .failure(let rejection): finish(.rejected(reason: rejection.reason, inDescriptor: rejection.inDescriptor), in: area)
        }
    }

    private func finish(_ result: ScanResult, in area: UnsafeMutableRawPointer) -> Never {
        var bytes = result.encoded()
        if bytes.count > Area.capacity {
            bytes = ScanResult.rejected(reason: "its description takes \(bytes.count) bytes, more than the \(Area.capacity) a scanner can send back", inDescriptor: true).encoded()
        }
        let length = bytes.count
        bytes.withUnsafeBytes { (area + Area.answer).copyMemory(from: $0.baseAddress!, byteCount: length) }
        area.storeBytes(of: UInt32(length), toByteOffset: Area.answerLength, as: UInt32.self)
        area.storeBytes(of: 1, toByteOffset: Area.answerLength + 4, as: UInt32.self)  // answered
        fflush(nil)  // what the plugin printed, still in its buffers, is judged too
        _exit(0)
    }

    // MARK: - In the scanner

    /// Waits for the file's process to end (killing it at the deadline, or
    /// when the host is gone), keeping its thread limit and collecting what it
    /// printed, then says what became of the file.
    private func supervise(_ pid: Int32, area: UnsafeMutableRawPointer, stdout: Int32, stderr: Int32, supervisor: Int32) -> [UInt8] {
        let ended = process_shims_process_descriptor(pid)
        defer { if ended >= 0 { close(ended) } }
        let deadline = MonotonicTime.now + scanning.deadline
        // First the socket on which the process hands over its sandbox's listener, then that listener.
        var asking = supervisor, listener: Int32 = -1
        let sandbox = SandboxSupervisor()  // what it is refused, in the scanner's memory
        defer { if listener >= 0 { close(listener) } }
        var printed = Printed(), logged = Printed()
        var timedOut = false, running = true
        var status: Int32 = 0
        // A pipe at its end, or a listener finished with, leaves the poll (-1): it would wake it at once, again and again.
        var pollers = [pollfd(fd: ended, events: Int16(POLLIN), revents: 0), pollfd(fd: stdout, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stderr, events: Int16(POLLIN), revents: 0), pollfd(fd: asking, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: scanning.channel.descriptor, events: 0, revents: 0)]
        while running {
            let left = deadline - MonotonicTime.now
            if left <= 0 && !timedOut {
                kill(pid, SIGKILL)
                timedOut = true
            }
            // Without a process descriptor (a kernel before 5.3), its end is looked for every 10 ms.
            let wait = ended < 0 ? 10 : timedOut ? -1 : Int32(max(1, (left * 1000).rounded(.up)))
            let ready = poll(&pollers, nfds_t(pollers.count), wait)
            running = ended < 0 ? waitpid(pid, &status, WNOHANG) == 0 : pollers[0].revents == 0
            guard ready > 0 else { continue }
            if pollers[4].revents & Int16(POLLHUP | POLLERR) != 0 {
                kill(pid, SIGKILL)  // the host is gone
                _exit(0)
            }
            if pollers[1].revents != 0 && printed.take(from: stdout) { pollers[1].fd = -1 }
            if pollers[2].revents != 0 && logged.relay(from: stderr, label: "plugin \(path) wrote") { pollers[2].fd = -1 }
            if pollers[3].revents != 0 {
                if listener >= 0 {
                    // The phase is the process's word, for the refusal's words only.
                    let phase = area.load(fromByteOffset: Area.phase, as: UInt32.self)
                    if !sandbox.answer(listener, pid: pid, threadLimit: scanning.policy.threadLimit, during: phase) {
                        pollers[3].fd = -1
                    }
                } else {
                    var byte: UInt8 = 0
                    _ = process_shims_receive_with_descriptor(asking, &byte, 1, &listener)
                    asking = -1
                    pollers[3].fd = listener
                }
            }
        }
        while ended >= 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        printed.take(from: stdout)
        logged.relay(from: stderr, label: "plugin \(path) wrote", flush: true)
        return verdict(Termination(status: status), timedOut: timedOut, printed: printed, refused: sandbox.recorded, area: area)
    }

    private func verdict(_ termination: Termination, timedOut: Bool, printed: Printed, refused record: SandboxRecord,
                         area: UnsafeMutableRawPointer) -> [UInt8] {
        func rejected(_ reason: String) -> [UInt8] { ScanResult.rejected(reason: reason, inDescriptor: false).encoded() }
        let phase = LoadPhase(rawValue: area.load(fromByteOffset: Area.phase, as: UInt32.self))
        let when = phase?.description ?? "while it was examined"
        let answered = area.load(fromByteOffset: Area.answerLength + 4, as: UInt32.self) == 1 && termination == .exited(0)
        var what: String?
        if timedOut {
            what = "did not finish within \(seconds(scanning.deadline)) s \(when) (an endless loop?); its process was killed"
        } else if !answered {
            what = "\(termination) \(when)"
        }
        if let attempts = record.attempts() {
            let at = record.refusals.first?.phase.map { " \($0)" } ?? ""
            return rejected("the plugin \(attempts)\(at): refused by the sandbox" + (what.map { "; then it \($0)" } ?? ""))
        }
        if let what { return rejected("the plugin \(what)") }
        if printed.count > 0 {
            return rejected("wrote \(printed.count) bytes to standard output while it was examined (\"\(PluginText.escaped(printed.first))\"); a plugin must not print: log through host->log")
        }
        let length = min(Int(area.load(fromByteOffset: Area.answerLength, as: UInt32.self)), Area.capacity)
        return Array(UnsafeRawBufferPointer(start: area + Area.answer, count: length))
    }

    /// "5", "0.5": seconds as people write them.
    private func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value))" : "\(value)"
    }

    /// What a file's process wrote on one of its pipes.
    struct Printed {
        /// Bytes in all.
        var count = 0
        /// The first 60, for the message.
        var first: [UInt8] = []
        /// A line not yet ended (relayed output).
        var pending: [UInt8] = []

        /// Reads what is waiting (the pipe does not block), keeping count.
        /// - Returns: whether the pipe is at its end.
        @discardableResult
        mutating func take(from fd: Int32, _ each: (ArraySlice<UInt8>) -> Void = { _ in }) -> Bool {
            while true {
                let n: Int
                do {
                    n = try Self.buffer.withUnsafeMutableBytes { bytes throws(Errno) in try SystemCall.read(fd, into: bytes) }
                } catch let error as Errno where error.wouldBlock {
                    return false
                } catch {
                    return true
                }
                if n == 0 { return true }
                count += n
                if first.count < 60 { first += Self.buffer[0..<min(n, 60 - first.count)] }
                each(Self.buffer[0..<n])
            }
        }

        /// One buffer for every read: the scanner has one thread.
        nonisolated(unsafe) private static var buffer = [UInt8](repeating: 0, count: 65536)

        /// Reads what is waiting and writes it on, a line at a time marked with
        /// `label`, to the scanner's standard error (a pipe the host relays and escapes).
        /// - Returns: whether the pipe is at its end.
        @discardableResult
        mutating func relay(from fd: Int32, label: String, flush: Bool = false) -> Bool {
            var lines = pending
            let atEnd = take(from: fd) { lines += $0 }
            var start = lines.startIndex
            while let newline = lines[start...].firstIndex(of: 10) {
                writeAll("segue: \(label): \(String(decoding: lines[start..<newline].prefix(4096), as: UTF8.self))\n")
                start = newline + 1
            }
            pending = Array(lines[start...].prefix(4096))
            if flush && !pending.isEmpty {
                writeAll("segue: \(label): \(String(decoding: pending, as: UTF8.self))\n")
                pending = []
            }
            return atEnd
        }
    }
}
