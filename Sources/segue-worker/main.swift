import Glibc
import PluginRuntime
import SystemCalls

// segue-worker: the only process that runs plugin code when Segue isolates
// plugins. Started by the host with descriptor 3, a SOCK_SEQPACKET socket to
// the host, and descriptor 4, the shared memory (see WorkerProtocol.swift).
//
//   segue-worker scan [--read DIR]...   examine the files the host names, one
//                                       by one (they lie beneath the DIRs)
//   segue-worker serve                  load the file the host names, then run
//                                       its animators for the host
//
// Both take the sandbox's options (`SandboxPolicy.workerArguments`) and enter
// it before any plugin code runs, while the process still has one thread:
// `scan` at once, `serve` once it is told its file. Only then do the threads
// start: the watchdog that ends this process as soon as the host's end of the
// socket closes, even while a plugin spins, and the relay of what plugins print.
//
// It links no Foundation, so that it starts in a few milliseconds.

let channel = WorkerChannel(descriptor: 3)
guard let memory = SharedMemory(descriptor: 4, size: WorkerLayout.size) else {
    writeAll("segue-worker: not started by a Segue host (no shared memory on descriptor 4)\n")
    exit(2)
}
let usage = "usage: segue-worker [--sandbox strict|off] [--memory BYTES] scan [--read DIR]... | serve (started by the Segue host, not by hand)\n"
guard let (policy, rest) = SandboxPolicy.parse(workerArguments: Array(CommandLine.arguments.dropFirst())) else {
    writeAll(usage)
    exit(2)
}

switch rest.first {
case "scan" where rest.count % 2 == 1 && stride(from: 1, to: rest.count, by: 2).allSatisfy({ rest[$0] == "--read" }):
    let folders = stride(from: 2, to: rest.count, by: 2).map { rest[$0] }
    let confined = Confinement.enter(policy, readable: folders, memory: memory)
    HostLifeline.exitWhenClosed(channel.descriptor)
    Output.relay([2], label: "a plugin being scanned wrote")
    Scanning(channel: channel, memory: memory, confined: confined).run()
case "serve" where rest.count == 1:
    Serving(channel: channel, memory: memory, policy: policy).run()
default:
    writeAll(usage)
    exit(2)
}
