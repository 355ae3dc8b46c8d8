import Glibc
import PluginRuntime
import SystemCalls

/// `segue-worker scan`: examines each file the host names and answers a
/// ``ScanResult`` in its binary form, in the question's slot. Writes the
/// current ``LoadPhase`` to shared memory before each step, so that the host
/// can say where a plugin crashed or hung. Answers are counted in shared
/// memory; the host is woken only every few answers, or when there is no
/// question left to work on (see ``WorkerOp/scan``). A file whose code tried
/// something the sandbox refused is answered ``ScanResult/refused`` and ends
/// the scanner: no other file is examined in a process that code ran in.
struct Scanning {
    let channel: WorkerChannel
    let memory: SharedMemory
    /// Why the sandbox could not be entered, if it could not: then no file is loaded.
    let confined: String?

    func run() {
        let captured = captureStandardOutput()
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
            // A new file: no phase yet.
            memory.base.storeBytes(of: 0, toByteOffset: WorkerLayout.phase, as: UInt32.self)
            let path = String(decoding: memory.copy(at: slot, count: Int(request.length), capacity: 1 << 16), as: UTF8.self)
            let result = confined.map { ScanResult.rejected(reason: "not examined: \($0)", inDescriptor: false) }
                ?? examine(path, captured: captured)
            answer(result, in: slot)
            answered &+= 1
            memory.storeRelease(answered, at: WorkerLayout.replies)
            if case .refused = result {
                announce()
                exit(0)
            }
            if answered &- announced >= WorkerLayout.scanBatch { announce() }
        }
        exit(0)
    }

    /// Loads `path` (the host resolved it and checked its ELF header before it
    /// asked) and says what it holds. Refusals are counted from the scanner's
    /// start: it ends at the first file that has any.
    private func examine(_ path: String, captured: Int32) -> ScanResult {
        let loaded = PluginLoader.load(path: path, checked: true) { phase in
            memory.base.storeBytes(of: phase.rawValue, toByteOffset: WorkerLayout.phase, as: UInt32.self)
            WorkerConfinement.setDuring(phase.rawValue, in: memory)
        }
        let printed = drain(captured)
        if SandboxRecord(copyingFrom: memory).count > 0 { return .refused }
        if !printed.isEmpty {
            return .rejected(reason: "wrote \(printed.count) bytes to standard output while it was examined (\"\(PluginText.escaped(printed.prefix(60)))\"); a plugin must not print: log through host->log", inDescriptor: false)
        }
        switch loaded {
        case .success(let animators): return .plugin(PluginDescription(animators: animators.map(\.description)))
        case .failure(let rejection): return .rejected(reason: rejection.reason, inDescriptor: rejection.inDescriptor)
        }
    }

    /// Writes `result` into the question's slot: its length, then its binary form.
    private func answer(_ result: ScanResult, in slot: Int) {
        var text = result.encoded()
        if text.count > WorkerLayout.scanSlotCapacity - 4 {
            text = ScanResult.rejected(reason: "its description takes \(text.count) bytes, more than the \(WorkerLayout.scanSlotCapacity - 4) a scanner can send back", inDescriptor: true).encoded()
        }
        memory.base.storeBytes(of: UInt32(text.count), toByteOffset: slot, as: UInt32.self)
        _ = memory.write(text, at: slot + 4, capacity: WorkerLayout.scanSlotCapacity - 4)
    }

    /// Points standard output at a pipe read after each file; returns its read end.
    private func captureStandardOutput() -> Int32 {
        guard let fds = closeOnExecPipe(nonblockingRead: true) else { return -1 }
        dup2(fds.write, 1)
        close(fds.write)
        return fds.read
    }

    /// What the plugin has printed so far: the pipe's read end does not
    /// block, so this stops when it is empty (its write end stays open).
    private func drain(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while fd >= 0, let n = try? buffer.withUnsafeMutableBytes({ bytes throws(Errno) in try SystemCall.read(fd, into: bytes) }), n > 0 {
            all += buffer[0..<n]
        }
        return all
    }
}
