import Foundation
import HostContainer
import PluginHost
import PluginRuntime

/// What the sandbox costs: the same worker with the sandbox strict and off,
/// for a frame's round trip (back to back) and for starting plugin code (a
/// first scan of the build folder's three Swift plugins in a fresh scanner,
/// and a first transition's setup in a fresh worker: each starts a process,
/// enters the sandbox, loads the plugin).
func sandboxBenchmark(binFolder: String, frames: Int) {
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("Sandbox cost (the same workers, sandbox strict against off; medians):")
    print("  animator      round trip strict   round trip off   first setup strict   first setup off")
    var scans: [SandboxPolicy.Mode: [Double]] = [:]
    for name in ["SpringSlide", "CurlUp", "ImageZoom"] {
        var roundTrip: [SandboxPolicy.Mode: Double] = [:], firstSetup: [SandboxPolicy.Mode: [Double]] = [:]
        for mode in [SandboxPolicy.Mode.strict, .off] {
            var options = RegistryOptions()
            options.worker.sandbox.mode = mode
            let registry = AnimatorRegistry(folders: [binFolder], options: options)
            let d = registry.animator(named: name)!
            roundTrip[mode] = medianFrame(d.makeAnimator(parameters: d.parameters.map(\.defaultValue)), frames: frames)
            for _ in 1...9 {
                // A fresh registry (no cache, a pool of its own): its scan starts a scanner; its first setup starts a worker.
                let start = now()
                let fresh = AnimatorRegistry(folders: [binFolder], options: options)
                scans[mode, default: []].append(now() - start)
                let animator = fresh.animator(named: name)!.makeAnimator(parameters: d.parameters.map(\.defaultValue))
                let setupStart = now()
                _ = animator.setup(makeContext())
                firstSetup[mode, default: []].append(now() - setupStart)
                animator.animationEnded(false)
            }
        }
        print("  " + name.padding(toLength: 12, withPad: " ", startingAt: 0)
              + String(format: "  %14.2f µs  %12.2f µs  %16.2f ms  %13.2f ms", roundTrip[.strict]!, roundTrip[.off]!,
                       median(firstSetup[.strict]!) * 1e3, median(firstSetup[.off]!) * 1e3))
    }
    print(String(format: "  first scan of the build folder (3 Swift plugins, a fresh scanner): %.2f ms strict, %.2f ms off",
                 median(scans[.strict]!) * 1e3, median(scans[.off]!) * 1e3))
}
