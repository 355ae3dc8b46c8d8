import AnimatorABI
import EmbedABI
import Embedding
import Foundation

/// Many windows at once, as a compositor meets them (--windows-only): 16
/// windows opening and closing through libsegue's C API, each transition
/// sampled once a frame at 60 Hz through the sampler, at the frame's
/// presentation time (the next frame asked for ahead, as the KWin effect
/// does), the bundled plugins in their
/// sandboxed workers. What is timed is one frame's sampling of all 16 (a
/// window's transition beginning and finishing is not: they come between
/// frames, as a compositor handles a window's events, not while it paints). With
/// `busy`, two threads spin beside it, as a desktop's other work does.
func manyWindowsBenchmark(binFolder: String, seconds: Double, busy: Bool) {
    var options = segue_player_options_t()
    options.struct_size = UInt32(MemoryLayout<segue_player_options_t>.size)
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS | SEGUE_PLAYER_NO_SPIN
    // Three plugin files play at once, a worker each, each granted the standard 1 GiB, within
    // the standard budget (4 GiB) as a compositor's player has it.
    var player: OpaquePointer?
    let made = binFolder.withCString { folder in
        var folders: [UnsafePointer<CChar>?] = [folder]
        return folders.withUnsafeMutableBufferPointer { list in
            options.plugin_dirs = UnsafePointer(list.baseAddress)
            options.plugin_dir_count = 1
            return seguePlayerNew(&options, &player)
        }
    }
    precondition(made == SEGUE_OK, String(cString: segueErrorMessage()!))
    defer { seguePlayerFree(player) }

    let animators = ["default", "Pop", "SpringSlide", "CurlUp"]
    let screen = segue_rect_t(x: 0, y: 0, width: 1920, height: 1080)
    /// A window of its own: opening or closing, at its own place, by one of the animators.
    func begin(_ k: Int) -> (transition: OpaquePointer, sampler: OpaquePointer, duration: Double) {
        var desc = segue_transition_desc_t()
        desc.struct_size = UInt32(MemoryLayout<segue_transition_desc_t>.size)
        desc.bounds = screen
        desc.kind = (k % 2 == 0 ? SEGUE_TRANSITION_APPEAR : SEGUE_TRANSITION_DISAPPEAR).rawValue
        let frame = segue_rect_t(x: Double(40 + (k % 4) * 460), y: Double(40 + (k / 4) * 250), width: 420, height: 220)
        var transition: OpaquePointer?
        let status = "window-\(k)".withCString { name in
            animators[k % animators.count].withCString { animator in
                let window = segue_view_t(name: name, frame: frame, elements: nil, element_count: 0)
                let beneath = segue_view_t(name: nil, frame: segue_rect_t(), elements: nil, element_count: 0)
                (desc.from, desc.to) = k % 2 == 0 ? (beneath, window) : (window, beneath)
                desc.animator = animator
                return segueTransitionBegin(player, &desc, &transition)
            }
        }
        precondition(status == SEGUE_OK, String(cString: segueErrorMessage()!))
        var sampler: OpaquePointer?
        precondition(segueSamplerNew(transition, &sampler) == SEGUE_OK)
        var plan = segue_plan_info_t()
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        _ = segueTransitionPlan(transition, &plan)
        // fatalError, not precondition: a release build says why.
        if plan.fell_back { fatalError("\(animators[k % animators.count]) fell back: \(String(cString: plan.reason))") }
        return (transition!, sampler!, plan.duration)
    }

    let stop = ManagedAtomicFlag()
    var spinners: [Thread] = []
    if busy {
        for _ in 0..<2 {
            let thread = Thread {
                var x = 0.0
                while !stop.isSet { x += sin(x) }
                _ = x
            }
            thread.start()
            spinners.append(thread)
        }
    }

    var windows = (0..<16).map(begin)
    let frame = 1.0 / 60
    let first = now()
    var started = [Double](repeating: first, count: 16)
    var frames: [Double] = [], cpu: [Double] = []
    var statuses: [Int32: Int] = [:]
    var vblank = 0
    while now() - first < seconds {
        // A compositor samples for the frame's presentation: the refresh it
        // will be shown at, on the 60 Hz grid, however late its thread runs.
        let shown = first + Double(vblank) * frame
        let start = now(), startCPU = threadCPU()
        for k in windows.indices {
            let t = shown - started[k]
            var count: UInt32 = 0
            let status = segueSamplerSample(windows[k].sampler, t, &count, nil)
            statuses[status.rawValue, default: 0] += 1
            _ = segueTransitionPrefetch(windows[k].transition, t + frame)
        }
        frames.append(now() - start)
        cpu.append(threadCPU() - startCPU)
        // The next refresh this thread can still make (a missed one is skipped, as a compositor skips it).
        vblank = max(vblank + 1, Int(((now() - first) / frame).rounded(.up)))
        // A window whose transition is over begins its next one between
        // frames, as a compositor does on a window's event: not timed.
        let next = first + Double(vblank) * frame
        for k in windows.indices where next - started[k] > windows[k].duration {
            _ = segueTransitionFinish(windows[k].transition, true, nil)
            segueSamplerFree(windows[k].sampler)
            segueTransitionFree(windows[k].transition)
            windows[k] = begin(k)
            started[k] = next
        }
        let rest = first + Double(vblank) * frame - now()
        if rest > 0 { usleep(UInt32(rest * 1e6)) }
    }
    stop.set()
    for window in windows {
        _ = segueTransitionFinish(window.transition, true, nil)
        segueSamplerFree(window.sampler)
        segueTransitionFree(window.transition)
    }
    let sorted = frames.sorted(), cpuSorted = cpu.sorted()
    print(String(format: "16 windows sampled a frame at 60 Hz (%@; %d frames): median %.0f µs, p90 %.0f µs, p99 %.0f µs, longest %.2f ms (the goal: median 500 µs, p99 within 4 ms); samples: %d fresh, %d held (late)",
                 busy ? "two threads spinning beside it" : "nothing else running", frames.count,
                 sorted[sorted.count / 2] * 1e6, sorted[sorted.count * 9 / 10] * 1e6, sorted[sorted.count * 99 / 100] * 1e6,
                 sorted.last! * 1e3, statuses[SEGUE_OK.rawValue] ?? 0, statuses[SEGUE_LATE.rawValue] ?? 0))
    print(String(format: "  the sampling thread's CPU time a frame (what the machine's load does not lengthen): median %.0f µs, p90 %.0f µs, p99 %.0f µs",
                 cpuSorted[cpuSorted.count / 2] * 1e6, cpuSorted[cpuSorted.count * 9 / 10] * 1e6, cpuSorted[cpuSorted.count * 99 / 100] * 1e6))
}

/// This thread's CPU time, in seconds.
private func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A flag set once, read from other threads.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
