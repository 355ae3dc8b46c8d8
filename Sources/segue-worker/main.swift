import Glibc
import PluginRuntime

// segue-worker: the only process that runs plugin code when Segue isolates
// plugins. Started by the host with descriptor 3, a SOCK_SEQPACKET socket to
// the host, and descriptor 4, the shared memory (see WorkerProtocol.swift).
//
//   segue-worker scan    examine the files the host names, one by one
//   segue-worker serve   load the file the host names, then run its animators
//                        for the host
//
// It links no Foundation, so that it starts in a few milliseconds. It exits
// as soon as the host goes away, even while a plugin spins: a
// watchdog thread waits for the host's end of the socket to close.

let channel = WorkerChannel(descriptor: 3)
guard let memory = SharedMemory(descriptor: 4, size: WorkerLayout.size) else {
    writeAll("segue-worker: not started by a Segue host (no shared memory on descriptor 4)\n")
    exit(2)
}
HostLifeline.exitWhenClosed(channel.descriptor)

switch CommandLine.arguments.dropFirst().first {
case "scan":
    Output.relay([2], label: "a plugin being scanned wrote")
    Scanning(channel: channel, memory: memory).run()
case "serve" where CommandLine.arguments.count == 2:
    Serving(channel: channel, memory: memory).run()
default:
    writeAll("usage: segue-worker scan | serve (started by the Segue host, not by hand)\n")
    exit(2)
}
