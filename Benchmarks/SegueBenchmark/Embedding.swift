import AnimatorABI
import EmbedABI
import Embedding
import Foundation
import HostConfig
import HostContainer
import PluginHost

/// What libsegue costs a program (--embedding-only): sampling one frame
/// through the C API with plugins in sandboxed workers, beside the Swift
/// container's frame for the same animator and views (its tick: evaluate in the
/// worker, apply to the views); beginning a transition once its worker is
/// warm; and how long a sample can take while a plugin hangs (the bound).
/// The C API's exported functions are called in this process, as a C
/// program's calls reach them.
func embeddingBenchmark(binFolder: String, frames: Int) {
    func percentiles(_ values: [Double]) -> (median: Double, p99: Double, most: Double) {
        let sorted = values.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted.last!)
    }
    let player = EmbeddedPlayer(folders: [binFolder])
    print("libsegue (plugins in sandboxed workers; µs per frame; \(frames) frames each, in 5 rounds alternating with the container):")
    print("  animator       libsegue median   p99       container median   p99       ratio   begin (warm) median")
    for name in ["SpringSlide", "CurlUp", "ImageZoom", "default"] {
        var sampled: [Double] = [], ticked: [Double] = [], begun: [Double] = []
        var late = 0  // samples the bound answered with held states (a busy machine): timed, and counted
        for _ in 0..<5 {  // a transition sampled across its duration, then the container's frames, in turn
            let started = now()
            let transition = player.begin(name)
            begun.append(now() - started)
            var round: [Double] = []
            for f in 0..<(frames / 5) {
                let t = transition.duration * Double(f % 120) / 119
                let start = now()
                let status = transition.sample(t)
                round.append(now() - start)
                if status == SEGUE_LATE { late += 1 } else { precondition(status == SEGUE_OK, "\(name): status \(status.rawValue)") }
            }
            transition.finish()
            sampled += round
            ticked += containerFrames(name, binFolder: binFolder, frames: frames / 5)
        }
        let (s, c, b) = (percentiles(sampled), percentiles(ticked), percentiles(Array(begun.dropFirst())))
        print("  " + name.padding(toLength: 13, withPad: " ", startingAt: 0)
              + String(format: "  %10.2f   %9.2f   %12.2f   %9.2f   %5.2fx   %8.1f µs", s.median * 1e6, s.p99 * 1e6,
                       c.median * 1e6, c.p99 * 1e6, s.median / c.median, b.median * 1e6)
              + (late > 0 ? "  (\(late) samples late)" : ""))
    }
    hangingPluginBound(binFolder: binFolder)
}

/// The container's frame for the same animator and views: a tick (evaluate in the worker, apply to the views).
private func containerFrames(_ name: String, binFolder: String, frames: Int) -> [Double] {
    let registry = AnimatorRegistry(folders: [binFolder], isolation: .process)
    var config = SegueConfig(file: "<benchmark>")
    config.defaultAnimator = name
    let delegate = ConfigDrivenDelegate(config: config, registry: registry)
    let size = Rect(x: 0, y: 0, width: 390, height: 844)
    let children = ["grid", "detail"].map { side -> ViewController in
        let root = View(frame: size)
        root.addSubview(View(name: "image", frame: side == "grid" ? Rect(x: 16, y: 120, width: 171, height: 171)
                                                              : Rect(x: 0, y: 100, width: 390, height: 390)))
        return ViewController(name: side, view: root)
    }
    let clock = VirtualClock()
    let container = ContainerViewController(viewControllers: children, size: size, clock: clock)
    container.delegate = delegate
    var times: [Double] = []
    times.reserveCapacity(frames)
    var index = 1
    while times.count < frames {
        container.select(index: index)
        index = 1 - index
        let duration = container.transitionDuration ?? 1
        for f in 1..<120 where times.count < frames {
            clock.advance(to: clock.now + duration / 119)
            let start = now()
            container.tick()
            times.append(now() - start)
            if f == 1 && !container.isTransitioning { break }
        }
        container.runUntilIdle(advancing: clock)
    }
    return times
}

/// How long a sample can take while the plugin hangs: a render thread of the
/// program samples every millisecond of the wall clock until the default has
/// taken over (the plugin's worker misses its 0.5 s deadline).
private func hangingPluginBound(binFolder: String) {
    let folder = NSTemporaryDirectory() + "segue-bench-hang-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let source = root + "/Tests/Fixtures/fixture_plugin.c"
    let header = root + "/Sources/AnimatorABI/include"
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-DFAULT_HANG_EVALUATE", "-I", header, "-o", folder + "/libhang.so", source, "-lm"]
    guard (try? build.run()) != nil else { return print("  (a hanging plugin: no C compiler)") }
    build.waitUntilExit()
    guard build.terminationStatus == 0 else { return print("  (a hanging plugin: the fixture did not build)") }
    let player = EmbeddedPlayer(folders: [folder])
    var times: [Double] = []
    var statuses: [Int32: Int] = [:]
    let transition = player.begin("TestFade")
    let start = now()
    while now() - start < 2 {
        let before = now()
        let status = transition.sample(min(now() - start, transition.duration))
        times.append(now() - before)
        statuses[status.rawValue, default: 0] += 1
        usleep(1000)
    }
    transition.finish()
    let sorted = times.sorted()
    print(String(format: "  a plugin that hangs at 25%%, sampled every ms for 2 s (%d samples: %d fresh, %d held, %d by the default): median %.1f µs, p99 %.1f µs, longest %.2f ms (the bound: 4 ms)",
                 times.count, statuses[SEGUE_OK.rawValue] ?? 0, statuses[SEGUE_LATE.rawValue] ?? 0,
                 statuses[SEGUE_DEFAULT_TOOK_OVER.rawValue] ?? 0, sorted[sorted.count / 2] * 1e6,
                 sorted[sorted.count * 99 / 100] * 1e6, sorted.last! * 1e3))
    try? FileManager.default.removeItem(atPath: folder)
}

/// A player made through the C API, as a program makes one.
private final class EmbeddedPlayer {
    let handle: OpaquePointer

    init(folders: [String]) {
        var options = segue_player_options_t()
        options.struct_size = UInt32(MemoryLayout<segue_player_options_t>.size)
        options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS
        let strings = folders.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var pointers = strings.map { UnsafePointer($0) }
        var made: OpaquePointer?
        let status = pointers.withUnsafeMutableBufferPointer { list in
            options.plugin_dirs = UnsafePointer(list.baseAddress)
            options.plugin_dir_count = UInt32(list.count)
            return seguePlayerNew(&options, &made)
        }
        precondition(status == SEGUE_OK, String(cString: segueErrorMessage()!))
        handle = made!
    }

    deinit { seguePlayerFree(handle) }

    /// A transition of `animator` between the benchmark's grid and detail views.
    func begin(_ animator: String) -> EmbeddedTransition { EmbeddedTransition(player: self, animator: animator) }
}

/// A transition begun through the C API, with states of the caller's own.
private final class EmbeddedTransition {
    /// Kept alive while the transition is: freeing a player frees its transitions.
    let player: EmbeddedPlayer
    let handle: OpaquePointer
    var plan = segue_plan_info_t()
    let states = UnsafeMutablePointer<segue_layer_state_t>.allocate(capacity: Int(SEGUE_MAX_LAYERS))
    let pointers = UnsafeMutablePointer<UnsafeMutablePointer<segue_layer_state_t>?>.allocate(capacity: Int(SEGUE_MAX_LAYERS))
    let meshes = UnsafeMutablePointer<segue_vec3_t>.allocate(capacity: Int(SEGUE_MAX_LAYERS) * 65 * 65)

    var duration: Double { plan.duration }

    init(player: EmbeddedPlayer, animator: String) {
        self.player = player
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = segue_rect_t(x: 0, y: 0, width: 390, height: 844)
        desc.going_right = true
        var made: OpaquePointer?
        let status = animator.withCString { name in
            "grid".withCString { grid in
                "detail".withCString { detail in
                    "image".withCString { image in
                        var small = segue_element_t(struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: image,
                                                    frame: segue_rect_t(x: 16, y: 120, width: 171, height: 171))
                        var large = segue_element_t(struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: image,
                                                    frame: segue_rect_t(x: 0, y: 100, width: 390, height: 390))
                        return withUnsafePointer(to: &small) { s in
                            withUnsafePointer(to: &large) { l in
                                var fromElements: [UnsafePointer<segue_element_t>?] = [s], toElements: [UnsafePointer<segue_element_t>?] = [l]
                                return fromElements.withUnsafeMutableBufferPointer { f in
                                    toElements.withUnsafeMutableBufferPointer { t in
                                        desc.from = segue_view_t(name: grid, frame: desc.bounds, elements: UnsafePointer(f.baseAddress), element_count: 1)
                                        desc.to = segue_view_t(name: detail, frame: desc.bounds, elements: UnsafePointer(t.baseAddress), element_count: 1)
                                        desc.animator = name
                                        return segueTransitionBegin(player.handle, &desc, &made)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        precondition(status == SEGUE_OK, String(cString: segueErrorMessage()!))
        handle = made!
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        _ = segueTransitionPlan(handle, &plan)
        precondition(!plan.fell_back, "\(animator) fell back: \(String(cString: plan.reason))")
        for i in 0..<Int(SEGUE_MAX_LAYERS) {
            states[i] = segue_layer_state_t()
            states[i].struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size)
            states[i].mesh = meshes + i * 65 * 65
            states[i].mesh_vertex_count = 65 * 65
            pointers[i] = states + i
        }
    }

    deinit {
        segueTransitionFree(handle)
        states.deallocate()
        pointers.deallocate()
        meshes.deallocate()
    }

    func sample(_ t: Double) -> segue_status_t { segueTransitionSample(handle, t, pointers, plan.layer_count) }

    func finish() { _ = segueTransitionFinish(handle, true, nil) }
}
