// SegueBenchmark: what per-frame evaluation through the plugin ABI costs
// against the same math called directly in Swift, what a round trip to a
// worker process adds, and how startup grows with the plugins installed. Run it in release mode (see the README); it is not a test.
//
//   swift build -c release && .build/release/SegueBenchmark [--frames N] [--counts 10,100,1000,5000]
//
// Then how long reading a config of 100,000 children or rules takes
// (--config-only runs just that), and how long `segue run --watch` takes to
// play a change (--watch-only runs just that). After the round trips comes
// what the sandbox costs (--sandbox-only runs just that), and what libsegue
// costs a program (--embedding-only runs just that). It ends with
// rendering figures (--rendering-only runs just those, --pictures-only the frames
// and previews with screenshots and real type; --frames-only [ANIMATOR]
// just the time to draw each frame, SEGUE_BENCH_EACH=1 listing every frame and
// SEGUE_BENCH_FRAME=N drawing frame N alone, for a profiler): for each animator
// at 390x844, the time and peak memory of `segue preview`, and GIF and PNG sizes
// against gifsicle -O3 (where installed) and zlib level 6 on the same frames.
// --look-only times one window's frame plain, rounded, shadowed and clipped
// (ABI 1.4's look) in Segue's renderer.
// --encoders-only times the terminal encoders (sixel, kitty inline) alone on
// frames of the size segue show sends a terminal.
//
// With --single ANIMATOR [--swift] --frames N it only evaluates N frames of
// one animator, through the ABI or (--swift) its direct Swift counterpart:
// run that under valgrind to count instructions (callgrind, repeatable
// whatever the machine is doing) or allocations (memcheck's heap summary).

import Foundation
import HostContainer
import PluginHost
import Timing

// MARK: - The same math, called directly in Swift

/// CurlUp's math (Plugins/CurlUp) as a Swift animator, the reference the
/// plugin is measured against.
final class SwiftCurl: TransitionAnimator {
    let name = "CurlUp (Swift)", source = AnimatorSource.application
    let duration = 0.4, radius = 48.0, angle = 20.0, rows = 32
    var columns = 2
    /// A parameter in the plugin, so a stored value here, not a constant the compiler could fold.
    let curve = TimingCurve.named[3].curve

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        let page = context.initialFrame(for: context.fromViewController)
        columns = min(max(Int((Double(rows) * page.width / page.height).rounded(.up)), 2), 64)
        return .animate(TransitionPlan(duration: duration, layers: [
            LayerRequest(.view(.to)), LayerRequest(.view(.from), meshColumns: columns, meshRows: rows),
        ]))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        let progress = curve.value(at: t / duration)
        let frame = layers[1].frame
        let mesh = layers[1].mesh
        let tilt = angle * Double.pi / 180, r = radius
        let nx = sin(tilt), ny = cos(tilt)
        let top = min(0, frame.width * nx), bottom = frame.height * ny + max(0, frame.width * nx)
        let halfTurn = Double.pi * r
        let line = bottom - progress * (bottom - top + halfTurn)
        for j in 0...rows {
            let v = frame.height * Double(j) / Double(rows)
            for i in 0...columns {
                let u = frame.width * Double(i) / Double(columns)
                let d = u * nx + v * ny - line
                var back = 0.0, z = 0.0
                if d > 0 {
                    if d <= halfTurn {
                        let phi = d / r
                        back = d - r * sin(phi)
                        z = r * (1 - cos(phi))
                    } else {
                        back = 2 * d - halfTurn
                        z = 2 * r
                    }
                }
                mesh[j * (columns + 1) + i] = Vec3(x: frame.x + u - back * nx, y: frame.y + v - back * ny, z: z)
            }
        }
        layers[1].isHidden = progress >= 1
    }

    func animationEnded(_ completed: Bool) {}
}

/// ImageZoom's math (Plugins/ImageZoom) as a Swift animator.
final class SwiftZoom: TransitionAnimator {
    let name = "ImageZoom (Swift)", source = AnimatorSource.application
    let duration = 0.3
    let curve = TimingCurve.named[3].curve
    var fromFrame = Rect.zero, toFrame = Rect.zero, finalFrame = Rect.zero

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        fromFrame = context.elements(of: .from)[0].frame
        toFrame = context.elements(of: .to)[0].frame
        finalFrame = context.finalFrame(for: context.toViewController)
        return .animate(TransitionPlan(
            duration: duration,
            layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to)),
                     LayerRequest(.snapshot(ElementReference(side: .from, index: 0)))],
            hiddenElements: [ElementReference(side: .from, index: 0), ElementReference(side: .to, index: 0)]))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        let progress = curve.value(at: t / duration)
        layers[1].frame = finalFrame
        layers[1].alpha = progress
        layers[2].frame = fromFrame.interpolated(to: toFrame, progress)
    }

    func animationEnded(_ completed: Bool) {}
}

// MARK: - Measuring

func now() -> Double { MonotonicClock().now }

/// Median seconds of `runs` runs of `body`.
func median(runs: Int = 9, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = now()
        body()
        times.append(now() - start)
    }
    return times.sorted()[runs / 2]
}

/// Median seconds of `runs` runs each of `a` and `b`, run in turn (`a`
/// first in each round, or `b` when `bFirst`): each runs after the other
/// has, so that neither is the one to find the caches emptied by what came
/// before the rounds.
func medians(runs: Int, bFirst: Bool = false, _ a: () -> Void, _ b: () -> Void) -> (a: Double, b: Double) {
    var times: (a: [Double], b: [Double]) = ([], [])
    for _ in 0..<runs {
        for first in bFirst ? [false, true] : [true, false] {
            let start = now()
            if first { a() } else { b() }
            if first { times.a.append(now() - start) } else { times.b.append(now() - start) }
        }
    }
    return (times.a.sorted()[runs / 2], times.b.sorted()[runs / 2])
}

/// A from and a to child sharing an `image` element, in a 390x844 container.
func makeContext() -> TransitionContext {
    let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
    let container = View(frame: bounds)
    let grid = View(frame: bounds), detail = View(frame: bounds)
    grid.addSubview(View(name: "image", frame: Rect(x: 16, y: 120, width: 171, height: 171)))
    detail.addSubview(View(name: "image", frame: Rect(x: 0, y: 100, width: 390, height: 390)))
    container.addSubview(grid)
    return TransitionContext(from: ViewController(name: "grid", view: grid), to: ViewController(name: "detail", view: detail),
                             containerView: container, goingRight: true) { _ in }
}

/// Evaluates every layer of `animator` at `frames` evenly spaced times; returns
/// nanoseconds per frame (all layers).
func evaluationCost(_ animator: any TransitionAnimator, frames: Int, runs: Int = 9) -> Double {
    let context = makeContext()
    guard case .animate(let plan) = animator.setup(context) else { fatalError("\(animator.name) declined") }
    let meshes = plan.layers.map { $0.meshColumns > 0 ? Mesh(columns: $0.meshColumns, rows: $0.meshRows, covering: context.containerView.bounds) : nil }
    let states = UnsafeMutablePointer<LayerState>.allocate(capacity: plan.layers.count)
    defer { states.deallocate() }
    var sink = 0.0
    // As the container does each frame: fill the resting states, evaluate, read them.
    let seconds = median(runs: runs) {
        for f in 0..<frames {
            let t = plan.duration * Double(f) / Double(frames - 1)
            for layer in plan.layers.indices {
                (states + layer).initialize(to: LayerState(
                    frame: context.containerView.bounds, zPosition: Double(layer),
                    mesh: meshes[layer]?.vertices ?? .init(start: nil, count: 0)))
            }
            animator.evaluate(at: t, layers: LayerStates(base: states, count: plan.layers.count))
            for layer in plan.layers.indices {
                sink += states[layer].alpha + states[layer].frame.x + states[layer].transform.translation.x
            }
        }
    }
    animator.animationEnded(true)
    if sink.isNaN { print("") }  // keeps the work observable
    return seconds / Double(frames) * 1e9
}

// MARK: - Main

/// The median time of one evaluation of all layers, in microseconds, each
/// frame timed on its own; with `pace`, one frame every `pace` seconds, as a
/// display would ask (the worker then sleeps between frames).
func medianFrame(_ animator: any TransitionAnimator, frames: Int, pace: Double? = nil) -> Double {
    let context = makeContext()
    guard case .animate(let plan) = animator.setup(context) else { fatalError("\(animator.name) declined") }
    let meshes = plan.layers.map { $0.meshColumns > 0 ? Mesh(columns: $0.meshColumns, rows: $0.meshRows, covering: context.containerView.bounds) : nil }
    let states = UnsafeMutablePointer<LayerState>.allocate(capacity: plan.layers.count)
    defer { states.deallocate() }
    var times: [Double] = []
    times.reserveCapacity(frames)
    for f in 0..<frames {
        let t = plan.duration * Double(f % 100) / 99
        for layer in plan.layers.indices {
            (states + layer).initialize(to: LayerState(
                frame: context.containerView.bounds, zPosition: Double(layer),
                mesh: meshes[layer]?.vertices ?? .init(start: nil, count: 0)))
        }
        if let pace { usleep(UInt32(pace * 1e6)) }
        let start = now()
        animator.evaluate(at: t, layers: LayerStates(base: states, count: plan.layers.count))
        times.append(now() - start)
    }
    precondition(animator.failure == nil, "\(animator.name) failed: \(animator.failure!)")
    animator.animationEnded(true)
    return times.sorted()[frames / 2] * 1e6
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, default value: Int, in arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return value }
    return v
}
let frames = option("--frames", default: 20_000)
if arguments.contains("--look-only") {
    lookBenchmark()  // the renderer alone: no plugins needed
    exit(0)
}
let binFolder = (try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") as NSString).deletingLastPathComponent

// Plugin load time: the first scan of the build folder (three Swift plugins), in a scanner process.
let loadStart = now()
let workerRegistry = AnimatorRegistry(folders: [binFolder])
let loadSeconds = now() - loadStart
/// In-process loading, for the ABI's own cost.
let registry = AnimatorRegistry(folders: [binFolder], isolation: .none)
func plugin(_ name: String) -> AnimatorDescriptor {
    guard let d = registry.animator(named: name) else { fatalError("\(name) not found in \(binFolder): build it first") }
    return d
}
func defaults(_ d: AnimatorDescriptor) -> [Double] { d.parameters.map(\.defaultValue) }

let pairs: [(String, any TransitionAnimator, any TransitionAnimator)] = [
    ("SpringSlide", plugin("SpringSlide").makeAnimator(parameters: defaults(plugin("SpringSlide"))),
     DefaultAnimator.make()),
    ("CurlUp", plugin("CurlUp").makeAnimator(parameters: defaults(plugin("CurlUp"))), SwiftCurl()),
    ("ImageZoom", plugin("ImageZoom").makeAnimator(parameters: defaults(plugin("ImageZoom"))), SwiftZoom()),
]

// --registry FOLDER CACHE N: builds a warm registry N times, for a profiler.
if let i = arguments.firstIndex(of: "--registry"), i + 3 < arguments.count {
    var options = RegistryOptions()
    options.cache = RegistryCache(path: arguments[i + 2])
    for _ in 0..<(Int(arguments[i + 3]) ?? 1) { _ = AnimatorRegistry(folders: [arguments[i + 1]], options: options) }
    exit(0)
}

if arguments.contains("--config-only") {
    print("Reading configs (SegueConfig.parse, from memory; median of 5):")
    configBenchmark()
    exit(0)
}
if arguments.contains("--watch-only") {
    print("Hot reload (segue run --watch; from the change to the report showing it, the 0.1 s settle included):")
    hotReloadBenchmark(segue: binFolder + "/segue",
                       repository: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path)
    exit(0)
}
if arguments.contains("--startup-only") {
    let counts = arguments.firstIndex(of: "--counts").map { i in arguments[i + 1].split(separator: ",").compactMap { Int($0) } } ?? [10, 1_000]
    print("Startup with N C plugins installed (segue run playing one transition with one of them; median wall time):")
    startupBenchmark(counts: counts, repository: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path)
    exit(0)
}
if arguments.contains("--embedding-only") {
    embeddingBenchmark(binFolder: binFolder, frames: option("--frames", default: 2_000))
    exit(0)
}
if arguments.contains("--windows-only") {
    let seconds = arguments.firstIndex(of: "--seconds").flatMap { Double(arguments[$0 + 1]) } ?? 10
    manyWindowsBenchmark(binFolder: binFolder, seconds: seconds, busy: false)
    manyWindowsBenchmark(binFolder: binFolder, seconds: seconds, busy: true)
    exit(0)
}
if arguments.contains("--sandbox-only") {
    sandboxBenchmark(binFolder: binFolder, frames: frames)
    exit(0)
}
if let i = arguments.firstIndex(of: "--frames-only") {
    let only = i + 1 < arguments.count && !arguments[i + 1].hasPrefix("-") ? arguments[i + 1] : nil
    frameTimes(registry: registry, only: only)
    exit(0)
}
if arguments.contains("--show-only") {
    // Plugins isolated in workers, as segue show runs them.
    showBenchmark(registry: AnimatorRegistry(folders: [binFolder]))
    exit(0)
}
if arguments.contains("--encoders-only") {
    encoderBenchmark(registry: registry)
    exit(0)
}
if arguments.contains("--rendering-only") {
    renderingBenchmark(registry: registry, segue: binFolder + "/segue")
    pictureFrameTimes(registry: registry, segue: binFolder + "/segue")
    exit(0)
}
if let i = arguments.firstIndex(of: "--pictures-only") {
    let only = i + 1 < arguments.count && !arguments[i + 1].hasPrefix("-") ? arguments[i + 1] : nil
    pictureFrameTimes(registry: registry, segue: binFolder + "/segue", only: only)
    exit(0)
}
if let i = arguments.firstIndex(of: "--single"), i + 1 < arguments.count {
    let name = arguments[i + 1]
    guard let pair = pairs.first(where: { $0.0 == name }) else { fatalError("no animator \(name)") }
    let swift = arguments.contains("--swift")
    _ = evaluationCost(swift ? pair.2 : pair.1, frames: frames, runs: 1)
    print("evaluated \(frames) frames of \(name) \(swift ? "in Swift" : "through the ABI")")
    exit(0)
}

print("Segue benchmark (\(frames) frames per run; per animator the best of 5 medians of 9 runs)\n")
print("Per-frame evaluation, all layers, ns per frame:")
print("  animator      through the ABI   direct Swift   ratio")
for (name, abi, swift) in pairs {
    // Alternate the two, five rounds, and keep each side's best median: what
    // the machine does meanwhile shows up as noise in both.
    var viaABI = Double.infinity, direct = Double.infinity
    for _ in 0..<5 {
        viaABI = min(viaABI, evaluationCost(abi, frames: frames))
        direct = min(direct, evaluationCost(swift, frames: frames))
    }
    print("  " + name.padding(toLength: 12, withPad: " ", startingAt: 0)
          + String(format: "  %15.1f  %13.1f   %5.3f", viaABI, direct, viaABI / direct))
}
print("  (SpringSlide's direct Swift counterpart is the built-in default: the same algorithm and spring.)")

print("\nPer-frame evaluation in a worker process (one round trip through shared memory), µs per frame, median:")
print("  animator      worker, back to back   worker, 1 frame/ms   in-process (ABI)")
for (name, inProcess, _) in pairs {
    let isolated = workerRegistry.animator(named: name)!
    func fresh() -> any TransitionAnimator { isolated.makeAnimator(parameters: defaults(isolated)) }
    print("  " + name.padding(toLength: 12, withPad: " ", startingAt: 0)
          + String(format: "  %20.2f   %18.2f   %16.2f", medianFrame(fresh(), frames: frames),
                   medianFrame(fresh(), frames: 2_000, pace: 0.001), medianFrame(inProcess, frames: frames)))
}

print("")
sandboxBenchmark(binFolder: binFolder, frames: frames)
print("")
embeddingBenchmark(binFolder: binFolder, frames: 2_000)

print("\nPlugin loading:")
print(String(format: "  first scan of the build folder (3 Swift plugins, in a scanner process): %.2f ms", loadSeconds * 1e3))
print("\nStartup with N C plugins installed (segue run playing one transition with one of them; median wall time):")
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
let counts = arguments.firstIndex(of: "--counts").map { i in arguments[i + 1].split(separator: ",").compactMap { Int($0) } }
    ?? [10, 100, 1_000, 5_000]
startupBenchmark(counts: counts, repository: repository)
print("\nReading configs (SegueConfig.parse, from memory; median of 5):")
configBenchmark()
print("\nHot reload (segue run --watch; from the change to the report showing it, the 0.1 s settle included):")
hotReloadBenchmark(segue: binFolder + "/segue", repository: repository)
renderingBenchmark(registry: registry, segue: binFolder + "/segue")
pictureFrameTimes(registry: registry, segue: binFolder + "/segue")
