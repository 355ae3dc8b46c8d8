import Foundation
import Glibc
import HostContainer

/// `segue-worker scan`: examines each file the host names and answers a
/// ``ScanResult`` in its binary form. Writes the current ``LoadPhase`` to shared memory before
/// each step, so that the host can say where a plugin crashed or hung.
struct Scanning {
    let channel: WorkerChannel
    let memory: SharedMemory

    func run() {
        let captured = captureStandardOutput()
        while case .success(let request) = channel.receive(WorkerRequest.self, within: nil) {
            guard request.op == WorkerOp.scan.rawValue, request.slot < 2 else { exit(2) }
            let slot = WorkerLayout.scanSlot(Int(request.slot))
            // A new file: no phase yet (the host may have asked about the next one meanwhile).
            memory.base.storeBytes(of: 0, toByteOffset: WorkerLayout.phase, as: UInt32.self)
            let path = String(decoding: memory.copy(at: slot, count: Int(request.length), capacity: 1 << 16), as: UTF8.self)
            // The host resolved the path and checked the ELF header before it asked.
            let loaded = PluginLoader.load(path: path, checked: true) { phase in
                memory.base.storeBytes(of: phase.rawValue, toByteOffset: WorkerLayout.phase, as: UInt32.self)
            }
            let printed = drain(captured)
            let result: ScanResult
            if !printed.isEmpty {
                result = .rejected(reason: "wrote \(printed.count) bytes to standard output while it was examined (\"\(PluginText.escaped(printed.prefix(60)))\"); a plugin must not print: log through host->log", inDescriptor: false)
            } else {
                switch loaded {
                case .success(let animators): result = .plugin(PluginDescription(animators: animators.map(\.description)))
                case .failure(let rejection): result = .rejected(reason: rejection.reason, inDescriptor: rejection.inDescriptor)
                }
            }
            let text = result.encoded()
            guard memory.write(text, at: slot, capacity: WorkerLayout.scanSlotCapacity) else {
                channel.send(WorkerReply(status: WorkerReply.failed))
                continue
            }
            channel.send(WorkerReply(status: WorkerReply.ok, length: UInt32(text.count)))
        }
        exit(0)
    }

    /// Points standard output at a pipe read after each file; returns its read end.
    private func captureStandardOutput() -> Int32 {
        guard let fds = closeOnExecPipe(nonblockingRead: true) else { return -1 }
        dup2(fds.write, 1)
        close(fds.write)
        return fds.read
    }

    private func drain(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while fd >= 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            all += buffer[0..<n]
        }
        return all
    }
}
