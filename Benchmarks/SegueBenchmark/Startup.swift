import Foundation
import HostContainer
import PluginHost

// Startup with many plugins installed: `segue run` with N distinct C plugins in
// its plugin folder, using one of them, with a cold and a warm registry cache,
// beside a plain C program that only dlopens every file (the floor).

/// Wall seconds of one run of `program`, its output discarded. Waits with
/// waitpid: Foundation's Process polls for the end every 50 ms, too coarse here.
func timeRun(_ program: String, _ arguments: [String], environment: [String: String] = [:]) -> Double {
    let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = now()
    precondition(posix_spawn(&pid, program, &actions, nil, argv, envp) == 0, "cannot start \(program)")
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let seconds = now() - start
    precondition(status == 0, "\(program) \(arguments) failed with status \(status)")
    return seconds
}

func compile(_ arguments: [String]) -> Bool {
    let cc = Process()
    cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    cc.arguments = ["cc"] + arguments
    guard (try? cc.run()) != nil else { return false }
    cc.waitUntilExit()
    return cc.terminationStatus == 0
}

/// The floor: dlopen every .so in a folder, nothing else.
let floorSource = """
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    DIR *d = opendir(argv[1]);
    struct dirent *e;
    char path[4096];
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 3, ".so")) continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        if (dlopen(path, RTLD_NOW | RTLD_LOCAL)) n++;
    }
    printf("%d\\n", n);
    return 0;
}
"""

func startupBenchmark(counts: [Int], repository: String) {
    let work = NSTemporaryDirectory() + "segue-startup-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let template = work + "/template.so"
    let floor = work + "/dlopen-all"
    try? floorSource.write(toFile: work + "/floor.c", atomically: false, encoding: .utf8)
    guard compile(["-O2", "-shared", "-fPIC", "-I", repository + "/Sources/AnimatorABI/include", "-o", template,
                   repository + "/Examples/c-animator/curve_slide.c", "-lm"]),
          compile(["-O2", "-o", floor, work + "/floor.c"]) else {
        print("  (no C compiler: skipped)")
        return
    }
    let bytes = [UInt8](FileManager.default.contents(atPath: template)!)
    let id = [UInt8]("curve-slide/1".utf8), name = [UInt8]("CurveSlide\0".utf8)
    func patched(_ i: Int) -> [UInt8] {
        // Same lengths, so the library stays whole: id org.segue.example.sNNNNNNNNNN/1, name CNNNNNNNNN.
        var copy = bytes
        let digits = String(format: "%010d", i)
        replace(&copy, id, Array(("s" + digits + "/1").utf8))
        replace(&copy, name, Array(("C" + digits.suffix(9) + "\0").utf8))
        return copy
    }
    print("  plugins   dlopen floor   segue run cold   cold/floor   segue run warm   warm/warm(10)   warm registry alone   scan (cold - warm)/floor")
    // Every count's folder first, then rounds that run every count in turn, so
    // that what the machine does meanwhile falls on all of them alike.
    struct Setup { let count: Int, folder: String, config: String, cache: String }
    let setups = counts.map { count -> Setup in
        let folder = work + "/plugins-\(count)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let path = folder + "/libBench\(String(format: "%05d", i)).so"
            guard FileManager.default.createFile(atPath: path, contents: Data(patched(i))) else { fatalError("cannot write \(path)") }
        }
        let config = work + "/segue-\(count).json"
        try? """
        {"plugins": ["\(folder)"], "children": ["a", "b"], "rules": [{"to": "b", "animator": "C000000000"}], "script": ["b"]}
        """.write(toFile: config, atomically: false, encoding: .utf8)
        return Setup(count: count, folder: folder, config: config, cache: work + "/cache-\(count).bin")
    }
    let segue = binFolder + "/segue"
    let rounds = 9
    var floors = [[Double]](repeating: [], count: setups.count), colds = floors, warms = floors
    for _ in 0..<rounds {
        for (k, setup) in setups.enumerated() {
            floors[k].append(timeRun(floor, [setup.folder]))
            unlink(setup.cache)
            let environment = ["SEGUE_REGISTRY_CACHE": setup.cache]
            colds[k].append(timeRun(segue, ["run", "--config", setup.config], environment: environment))
            for _ in 0..<2 { warms[k].append(timeRun(segue, ["run", "--config", setup.config], environment: environment)) }
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let warmTen = setups.firstIndex { $0.count == 10 }.map { median(warms[$0]) }
    for (k, setup) in setups.enumerated() {
        var options = RegistryOptions()
        options.cache = RegistryCache(path: setup.cache)
        let registrySeconds = (0..<5).map { _ -> Double in
            let start = now()
            _ = AnimatorRegistry(folders: [setup.folder], options: options)
            return now() - start
        }.sorted()[2]
        let (floorSeconds, cold, warm) = (median(floors[k]), median(colds[k]), median(warms[k]))
        let ratio = warmTen.map { String(format: "%.2f", warm / $0) } ?? "-"
        print(String(format: "  %7d   %9.1f ms   %11.1f ms   %9.2f   %11.1f ms   ", setup.count, floorSeconds * 1e3, cold * 1e3,
                     cold / floorSeconds, warm * 1e3) + ratio.padding(toLength: 14, withPad: " ", startingAt: 0)
              + String(format: "%8.2f ms", registrySeconds * 1e3)
              + String(format: "        %8.1f ms / %.2f", (cold - warm) * 1e3, (cold - warm) / floorSeconds))
    }
    print("  (medians of \(rounds) rounds, each running every count in turn: the floor once, segue run cold once and warm twice)")
}

private func replace(_ bytes: inout [UInt8], _ old: [UInt8], _ new: [UInt8]) {
    precondition(old.count == new.count)
    guard let at = (0...(bytes.count - old.count)).first(where: { bytes[$0..<($0 + old.count)].elementsEqual(old) }) else {
        fatalError("the template lacks \(String(decoding: old, as: UTF8.self))")
    }
    bytes.replaceSubrange(at..<(at + old.count), with: new)
}
