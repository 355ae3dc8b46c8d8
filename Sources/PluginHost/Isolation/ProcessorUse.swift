import Glibc

/// What a worker process has asked of the processors, read from the kernel
/// (its CPU clock and `/proc/PID/task/*/schedstat`), never from memory the
/// plugin can write: the CPU time all its threads used (ended ones
/// included), and the time its live threads waited on a run queue, ready
/// to run. Their sum grows by one second a second for each thread that
/// computes, however busy the machine is: a thread a busy machine gives
/// little processor waits for it the rest of the time. So what a plugin
/// asks is measured the same on an idle machine and a loaded one.
struct ProcessorUse {
    /// CPU time of all the process's threads so far, in seconds.
    var used: Double
    /// Seconds each live thread waited, ready to run, by thread id.
    var waited: [Int32: Double]

    /// The process `pid`'s use now; nil when it is gone.
    static func read(pid: Int32) -> ProcessorUse? {
        var clock = clockid_t()
        var now = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &now) == 0 else { return nil }
        var use = ProcessorUse(used: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9, waited: [:])
        guard let tasks = opendir("/proc/\(pid)/task") else { return use }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(name), let waited = runQueueWait(pid: pid, tid: tid) else { continue }
            use.waited[tid] = waited
        }
        return use
    }

    /// What was asked since `earlier` (a reading of the same process): CPU
    /// time used, and time waited by the threads alive now (one started
    /// since counts all its waiting).
    func since(_ earlier: ProcessorUse) -> (used: Double, waited: Double) {
        let waited = self.waited.reduce(0.0) { sum, thread in sum + max(thread.value - (earlier.waited[thread.key] ?? 0), 0) }
        return (max(used - earlier.used, 0), waited)
    }

    /// The second field of a thread's schedstat: nanoseconds spent waiting on a run queue.
    private static func runQueueWait(pid: Int32, tid: Int32) -> Double? {
        let fd = open("/proc/\(pid)/task/\(tid)/schedstat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 96)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let nanoseconds = UInt64(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return Double(nanoseconds) / 1e9
    }
}
