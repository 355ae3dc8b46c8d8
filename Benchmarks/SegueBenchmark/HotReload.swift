import Foundation
import HostContainer

// Hot reload: how long after a change `segue run --watch` has played the
// script with it. A plugin dropped in (renamed into place, as installers do),
// then removed; the config edited to pick another animator, then back. The
// clock runs from just before the change to the moment the report line
// showing it arrives on the pipe; it includes the watcher's 0.1 s settle time.

/// `segue run --watch` on a pipe, read line by line with deadlines.
private final class Watching {
    let pid: pid_t
    let output: Int32
    private var buffer = ""

    init(_ segue: String, _ arguments: [String]) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        let argv = ([segue] + arguments).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        env["SEGUE_REGISTRY_CACHE"] = "off"
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        precondition(posix_spawn(&pid, segue, &actions, nil, argv, envp) == 0, "cannot start \(segue)")
        close(ends[1])
        (self.pid, output) = (pid, ends[0])
    }

    /// Seconds until a line containing `text` arrives (at most 10 s).
    func wait(for text: String) -> Double? {
        let start = now()
        while now() - start < 10 {
            if let range = buffer.range(of: text) {
                buffer.removeSubrange(..<range.upperBound)
                return now() - start
            }
            var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 100) >= 0 else { return nil }
            if fds[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 65536)
                let n = read(output, &bytes, bytes.count)
                if n <= 0 { return nil }
                buffer += String(decoding: bytes[..<n], as: UTF8.self)
            }
        }
        return nil
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(output)
    }
}

func hotReloadBenchmark(segue: String, repository: String, rounds: Int = 10) {
    let folder = NSTemporaryDirectory() + "segue-bench-watch-\(getpid())"
    let plugins = folder + "/plugins"
    try? FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let built = folder + "/libfade.so"
    guard compile(["-std=c11", "-O2", "-shared", "-fPIC", "-I", repository + "/Sources/AnimatorABI/include",
                   "-o", built, repository + "/Tests/Fixtures/fixture_plugin.c", "-lm"]) else {
        print("  (no C compiler: skipped)")
        return
    }
    func config(_ animator: String) {
        try? #"{"plugins": ["plugins"], "children": ["a", "b"], "script": ["b"], "rules": [{"to": "b", "animator": "\#(animator)"}]}"#
            .write(toFile: folder + "/segue.json", atomically: false, encoding: .utf8)
    }
    config("TestFade")
    let watching = Watching(segue, ["run", "--watch", "--config", folder + "/segue.json"])
    defer { watching.stop() }
    guard watching.wait(for: "SIGINT (Ctrl-C) stops.") != nil else {
        print("  (segue run --watch did not start: skipped)")
        return
    }
    var dropped: [Double] = [], removed: [Double] = [], edited: [Double] = []
    for _ in 0..<rounds {
        let start = now()
        _ = try? FileManager.default.copyItem(atPath: built, toPath: plugins + "/.libfade.so.tmp")
        rename(plugins + "/.libfade.so.tmp", plugins + "/libfade.so")
        if watching.wait(for: "a -> b: TestFade (plugin") != nil { dropped.append(now() - start) }

        let edit = now()
        config("CurlUp")
        if watching.wait(for: "a -> b: CurlUp (plugin") != nil { edited.append(now() - edit) }
        config("TestFade")
        _ = watching.wait(for: "a -> b: TestFade (plugin")

        let removal = now()
        unlink(plugins + "/libfade.so")
        if watching.wait(for: "its plugin file") != nil { removed.append(now() - removal) }
    }
    func line(_ label: String, _ seconds: [Double]) {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else {
            print(String(format: "  %-42@ no reload seen", label))
            return
        }
        print(String(format: "  %-42@ median %.0f ms, max %.0f ms (%d of %d)", label, sorted[sorted.count / 2] * 1e3,
                     sorted.last! * 1e3, sorted.count, rounds))
    }
    line("a .so dropped in, until played with it:", dropped)
    line("the config edited, until played with it:", edited)
    line("a .so removed, until its fallback is played:", removed)
}
