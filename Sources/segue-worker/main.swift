import Glibc
import PluginRuntime
import ProcessShims
import SystemCalls

// segue-worker: the only process that runs plugin code when Segue isolates
// plugins. Started by the host with descriptor 3, a SOCK_SEQPACKET socket to
// the host, and descriptor 4, the shared memory (see WorkerProtocol.swift).
//
//   segue-worker scan [--deadline S] [--read DIR]...
//                                       examine the files the host names, one
//                                       by one, each in a process of its own
//                                       that ends within S seconds (they lie
//                                       beneath the DIRs)
//   segue-worker serve                  load the file the host names, then run
//                                       its animators for the host
//
// Both take the sandbox's options (`SandboxPolicy.workerArguments`) and enter
// it before any plugin code runs, while the process still has one thread:
// `scan`'s process for each file as it starts, `serve` once it is told its
// file. Only then does `serve` start its thread: the watchdog that ends this
// process as soon as the host's end of the socket closes, even while a plugin
// spins. Standard output and error are a pipe the host reads, escapes and
// marks (what plugins print and log goes there as it is); the environment is
// the host's choice, not its own.
//
// It links no Foundation, so that it starts in a few milliseconds.

// Dies with the host, whatever the host or this process does (SIGKILL when
// the host's spawning thread ends: the host exits, is killed, crashes).
guard process_shims_die_with_host(3) == 0 else { exit(0) }
// The program playing always wins the processor: this process, and every
// thread plugin code starts here, runs WorkerPriority.niceness below the
// host, set before any plugin code runs (the sandbox then refuses raising it).
WorkerPriority.lower()
let channel = WorkerChannel(descriptor: 3)
guard let memory = SharedMemory(descriptor: 4, size: WorkerLayout.size) else {
    writeAll("segue-worker: not started by a Segue host (no shared memory on descriptor 4)\n")
    exit(2)
}
let usage = "usage: segue-worker [--sandbox strict|off] [--memory BYTES] [--threads N] scan [--deadline S] [--read DIR]... | serve (started by the Segue host, not by hand)\n"
guard let (policy, rest) = SandboxPolicy.parse(workerArguments: Array(CommandLine.arguments.dropFirst())) else {
    writeAll(usage)
    exit(2)
}

switch rest.first {
case "scan" where rest.count % 2 == 1:
    var folders: [String] = [], deadline = 5.0  // the host always says
    for i in stride(from: 1, to: rest.count, by: 2) {
        switch rest[i] {
        case "--read": folders.append(rest[i + 1])
        case "--deadline" where Double(rest[i + 1]).map({ $0 > 0 && $0.isFinite }) == true: deadline = Double(rest[i + 1])!
        default:
            writeAll(usage)
            exit(2)
        }
    }
    Scanning(channel: channel, memory: memory, policy: policy, folders: folders, deadline: deadline).run()
case "serve" where rest.count == 1:
    Serving(channel: channel, memory: memory, policy: policy).run()
default:
    writeAll(usage)
    exit(2)
}
