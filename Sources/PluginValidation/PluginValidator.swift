import AnimatorABI
import Foundation
import HeapProbe
import HostContainer
import PluginHost
import PluginRuntime
import Timing

/// The outcome of one validation check.
public struct ValidationCheck: Equatable, Sendable, Codable {
    /// Pass, warn or fail.
    public enum Status: String, Equatable, Sendable, Codable {
        case pass, warn, fail
    }
    /// What was checked, e.g. "TestFade: finite states".
    public var name: String
    /// The verdict.
    public var status: Status
    /// What was expected and what was found.
    public var message: String

    /// A check's outcome.
    public init(name: String, status: Status, message: String) {
        self.name = name
        self.status = status
        self.message = message
    }
}

/// Checks a plugin file the way pluginval and clap-validator check audio
/// plugins: the entry point and ABI version, the descriptor, then every
/// animator over a matrix of contexts (tiny, ordinary and huge containers, both
/// directions, with and without shared elements, parameters at their minimum,
/// default, maximum and fuzzed from a seed): plans usable and declines
/// explained, finite states at t = 0, sampled times and t = duration, the final
/// state matching the final frames, the same t giving the same state, no memory
/// growth across many evaluations, and the time per evaluation within budget.
///
/// The checks run in this process: a plugin that crashes takes it down. The
/// `segue validate` tool runs them in a child process, one check at a time by
/// index, so that a crash or a hang is reported against the check that caused it.
public struct PluginValidator {
    /// The plugin file.
    public let path: String
    /// 1 to 10: how many contexts, samples and evaluations.
    public let strictness: Int
    /// Seeds the fuzzed parameters.
    public let seed: UInt64

    /// The longest one evaluation of all layers may take: 1 ms.
    public static let evaluationBudget = 0.001
    /// How much the heap may grow across the memory check's evaluations: 4 KiB.
    public static let allowedGrowth = 4_096
    /// How long the memory and time checks evaluate at most, whatever the
    /// strictness asks: 3 s, so that a slow animator is timed, not waited for.
    public static let checkTime = 3.0

    /// When set, the matrix is only this context (its number in the whole matrix).
    public var onlyContext: Int?
    /// Where the child that runs the checks records the call under way.
    package var progress: ValidationProgress?

    /// Whether a file or folder others could change fails the check that
    /// the plugin loads as `segue list` loads it (true unless the user allows
    /// insecure plugins, as `list` does).
    public var checksPermissions = true

    /// A validator of `path`; `strictness` is clamped to 1...10.
    public init(path: String, strictness: Int = 5, seed: UInt64 = 1) {
        self.path = path
        self.strictness = min(max(strictness, 1), 10)
        self.seed = seed
    }

    /// The checks' names, in the order ``run(check:)`` numbers them. Loads the plugin.
    public var checkNames: [String] { checks.map(\.name) }

    /// Runs the check numbered `index` in ``checkNames``.
    public func run(check index: Int) -> ValidationCheck {
        let check = checks[index]
        let (status, message) = check.run()
        return ValidationCheck(name: check.name, status: status, message: message)
    }

    private struct Check {
        let name: String
        let run: () -> (ValidationCheck.Status, String)
    }

    /// The plugin's own checks, then whether `segue list` would refuse it
    /// (last: a plugin that hangs or crashes is named by the checks before).
    private var checks: [Check] {
        pluginChecks + [Check(name: "loads as segue list loads it") { listCheck() }]
    }

    private var pluginChecks: [Check] {
        let identity = (try? FileIdentity.of(path).get()) ?? FileIdentity(device: 0, inode: 0, size: 0, modified: 0, changed: 0)
        let described = PluginLoader.load(path: path).map { PluginDetails(PluginDescription(animators: $0.map(\.description))) }
        func descriptors(_ factory: any AnimatorFactory) -> Result<[AnimatorDescriptor], PluginRejection> {
            described.map { details in
                details.names.indices.map { AnimatorDescriptor(details, index: $0, file: path, identity: identity, factory: factory) }
            }
        }
        let loaded = descriptors(InProcessFactory())
        let workers = WorkerFactory(settings: WorkerSettings())
        var list = [Check(name: "entry point and ABI version") {
            switch loaded {
            case .success: return (.pass, "'\(SEGUE_ENTRY_SYMBOL)' answered with a plugin for ABI \(AnimatorABIVersion.major).x")
            case .failure(let r) where r.inDescriptor: return (.pass, "'\(SEGUE_ENTRY_SYMBOL)' answered with a plugin for ABI \(AnimatorABIVersion.major).x")
            case .failure(let r): return (.fail, r.reason)
            }
        }]
        list.append(Check(name: "descriptor") {
            switch loaded {
            case .success(let animators):
                let missing = animators.filter(\.summary.isEmpty).map(\.name)
                let names = animators.map { "\($0.name) (\($0.id), \($0.version), \($0.parameters.count) parameter(s))" }
                if !missing.isEmpty { return (.warn, "no description for \(missing.joined(separator: ", ")); expected a sentence for people") }
                return (.pass, "well-formed: " + names.joined(separator: "; "))
            case .failure(let r): return r.inDescriptor ? (.fail, r.reason) : (.warn, "not read: loading stopped before the descriptor")
            }
        })
        guard case .success(let animators) = loaded, case .success(let confined) = descriptors(workers) else { return list }
        list.append(Check(name: "stays in its sandbox") { sandboxCheck(confined, workers) })
        for d in animators {
            list.append(Check(name: "\(d.name): setup over the context matrix") { setupCheck(d) })
            list.append(Check(name: "\(d.name): finite states") { finiteCheck(d) })
            list.append(Check(name: "\(d.name): states in range") { rangeCheck(d) })
            if strictness >= 2 { list.append(Check(name: "\(d.name): final state") { finalCheck(d) }) }
            if strictness >= 3 { list.append(Check(name: "\(d.name): same t, same state") { determinismCheck(d) }) }
            if strictness >= 4 { list.append(Check(name: "\(d.name): no memory growth") { memoryCheck(d) }) }
            if strictness >= 4 { list.append(Check(name: "\(d.name): time per evaluation") { timeCheck(d) }) }
        }
        return list
    }

    // MARK: - The checks

    func setupCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        if let only = onlyContext, situations(for: d).isEmpty {
            let size = matrixSize(for: d)
            return (.fail, "--context \(only) is not in \(d.name)'s matrix: at strictness \(strictness) it has \(size) contexts, 0 to \(size - 1)")
        }
        var animated = 0, declined = 0
        for s in situations(for: d) {
            switch begin(d, s) {
            case .running(let t, _):
                animated += 1
                end(t)
            case .declined(let reason):
                if reason.trimmingCharacters(in: .whitespaces).isEmpty {
                    return (.fail, "a decline without a reason, \(place(s)); expected plan->decline_reason to say why")
                }
                declined += 1
            case .unusable(let why):
                return (.fail, "\(why), \(place(s))")
            }
        }
        if animated == 0 { return (.warn, "declined all \(declined) contexts, each with a reason; expected it to animate some") }
        return (.pass, "\(animated) context(s) animated, \(declined) declined with a reason")
    }

    var sampleCount: Int { 2 + 2 * strictness }

    /// t = 0, `sampleCount - 1` evenly spaced times, and t = duration.
    func sampleTimes(of t: ActiveTransition) -> [Double] {
        (0...sampleCount).map { t.duration * Double($0) / Double(sampleCount) }
    }

    /// A passing result with its message rewritten by `describe`; others as they are.
    func passing(_ result: (ValidationCheck.Status, String), _ describe: (String) -> String) -> (ValidationCheck.Status, String) {
        result.0 == .pass ? (.pass, describe(result.1)) : result
    }

    /// What `segue list` would say of the file: its permissions and owner
    /// judged as the registry judges them, then examined by a scanner in a
    /// sandboxed process of its own. Whatever `list` refuses fails here, with
    /// the same words (and the same fix).
    func listCheck() -> (ValidationCheck.Status, String) {
        var facts = stat()
        guard let resolved = realpath(path, nil), stat(path, &facts) == 0 else {
            return (.fail, "cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        var trust = FileTrust()
        if checksPermissions, let problem = trust.problem(with: String(cString: resolved), mode: facts.st_mode, owner: facts.st_uid) {
            return (.fail, problem)
        }
        switch PluginScanner.scan([path], settings: WorkerSettings()).first {
        case .failure(let rejection)?: return (.fail, rejection.reason)
        default: return (.pass, "examined in a sandboxed process of its own, as segue list examines it: not refused")
        }
    }

    /// Loads the plugin in a worker inside the strict sandbox, as `segue run`
    /// does, and plays one transition of each of `confined` (isolated
    /// descriptors) there: anything the sandbox refused is named.
    func sandboxCheck(_ confined: [AnimatorDescriptor], _ workers: WorkerFactory) -> (ValidationCheck.Status, String) {
        for d in confined {
            guard let s = ordinarySituation(for: d) ?? situations(for: d).first, case .running(let t, _) = begin(d, s) else { continue }
            for time in sampleTimes(of: t) { t.apply(at: time) }
            end(t)
        }
        let failures = workers.quarantined
        let refused = failures.filter(\.refusedBySandbox)
        if !refused.isEmpty { return (.fail, refused.map(\.description).joined(separator: "; ")) }
        if let failed = failures.first { return (.fail, "in its sandboxed worker, it \(failed.description)") }
        let confinement = PluginConfinement(isolation: .process, policy: SandboxPolicy(), support: .current)
        return (.pass, "loaded and played each animator in a sandboxed worker (\(confinement.summary)); nothing was refused")
    }

    func finiteCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        passing(overMatrix(d) { t, _, s in
            for time in sampleTimes(of: t) {
                t.apply(at: time)
                guard let failure = t.failure else { continue }
                // The anchor's unknown parts were NaN: finite with zeros there, the animator read a part it was not given.
                if s.shared, case .running(let again, _) = begin(d, s, poisoned: false) {
                    defer { end(again) }
                    for time in sampleTimes(of: again) { again.apply(at: time) }
                    if again.failure == nil {
                        return "expected it to read context.anchor's rect and point only when has_rect and has_point say they are known; it read one that was not (NaN here), and \(failure)"
                    }
                }
                return "expected finite values; it \(failure)"
            }
            return nil
        }) { "finite at t = 0, \(sampleCount - 1) sampled times and t = duration over \($0)" }
    }

    /// Alpha outside [0, 1] and negative sizes: the host clamps or skips
    /// them, so they warn rather than fail, saying what, which layer and t.
    func rangeCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        passing(overMatrix(d, problem: .warn) { t, _, _ in
            for time in sampleTimes(of: t) {
                t.apply(at: time)
                // Non-finite states are the finite-states check's to report.
                if t.failure != nil { return nil }
                if let problem = t.outOfRange { return "found \(problem)" }
            }
            return nil
        }) { "alpha in [0, 1], sizes of 0 or more, clip radii within half the clip's shorter side, corner radii within half the frame's, shadows' radius of 0 or more and colour and opacity in [0, 1] at t = 0, \(sampleCount - 1) sampled times and t = duration over \($0)" }
    }

    func finalCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        passing(overMatrix(d) { t, stage, _ in
            t.apply(at: t.duration)
            if let failure = t.failure { return "expected finite values at t = duration; it \(failure)" }
            let to = stage.to.view, expected = stage.context.finalFrame(for: stage.to)
            func close(_ a: Rect, _ b: Rect) -> Bool {
                abs(a.x - b.x) <= 0.5 && abs(a.y - b.y) <= 0.5 && abs(a.width - b.width) <= 0.5 && abs(a.height - b.height) <= 0.5
            }
            // What is seen: the corners of the to view where its frame and transform put them.
            let seen = to.projectedCorners, wanted = View.projectedCorners(of: expected, transform: .identity) ?? []
            let misplaced = seen.map { zip($0, wanted).contains { abs($0.0 - $1.0) > 0.5 || abs($0.1 - $1.1) > 0.5 } } ?? true
            if misplaced {
                return "expected the to view's corners where its final frame \(expected) puts them, \(Self.describe(wanted)), at t = duration;"
                    + " found \(seen.map(Self.describe) ?? "them behind the eye"): \(Self.differences(to, from: expected))"
            }
            if to.alpha < 0.999 || to.isHidden {
                return "expected the to view shown at t = duration (alpha 1, not hidden); found alpha \(to.alpha), hidden \(to.isHidden)"
            }
            let from = stage.from.view
            if stage.context.kind == .disappear {
                let corners = from.projectedCorners ?? []
                let size = corners.count == 4 ? abs((corners[2].0 - corners[0].0) * (corners[2].1 - corners[0].1)) : 0
                let bounds = stage.container.frame
                let away = corners.allSatisfy { $0.0 >= bounds.width } || corners.allSatisfy { $0.0 <= 0 }
                    || corners.allSatisfy { $0.1 >= bounds.height } || corners.allSatisfy { $0.1 <= 0 }
                // ABI 1.4: a clip of no area (an iris closed) hides it too.
                let clippedAway = from.clip.map { $0.rect.width <= 0 || $0.rect.height <= 0 } ?? false
                return from.isHidden || from.alpha <= 0.001 || size < 1 || away || clippedAway ? nil
                    : "expected the closing window hidden, transparent, shrunk to nothing, clipped to nothing or moved out of the container at t = duration; found \(from.frame) at alpha \(LayerState.rounded(from.alpha))"
            }
            let gone = from.superview !== stage.container || from.isHidden || from.alpha <= 0.001
                || close(from.frame, stage.context.finalFrame(for: stage.from))
                || (from.zPosition < to.zPosition && to.mesh == nil && to.backgroundColor.alpha >= 1)
            if !gone {
                return "expected the from view at its final frame \(stage.context.finalFrame(for: stage.from)), hidden, transparent or beneath the to view at t = duration; found \(from.frame) at alpha \(from.alpha)"
            }
            return nil
        }) { "the to view rests at its final frame at t = duration over \($0)" }
    }

    static func describe(_ corners: [(Double, Double)]) -> String {
        corners.map { "(\(format($0.0)), \(format($0.1)))" }.joined(separator: " ")
    }

    static func format(_ v: Double) -> String {
        abs(v - v.rounded()) < 1e-9 ? String(Int(v.rounded())) : String(format: "%.2f", v)
    }

    /// Which members of `view`'s frame and transform differ from `frame` and
    /// the identity, as "frame.x 12 (expected 0), transform m41 8 (expected 0)".
    static func differences(_ view: View, from frame: Rect) -> String {
        var out: [String] = []
        for (name, found, wanted) in [("x", view.frame.x, frame.x), ("y", view.frame.y, frame.y),
                                      ("width", view.frame.width, frame.width), ("height", view.frame.height, frame.height)]
            where abs(found - wanted) > 1e-9 {
            out.append("frame.\(name) \(format(found)) (expected \(format(wanted)))")
        }
        for (i, (found, wanted)) in zip(view.transform.values, Transform3D.identity.values).enumerated() where abs(found - wanted) > 1e-9 {
            out.append("transform m\(i / 4 + 1)\(i % 4 + 1) \(format(found)) (expected \(format(wanted)))")
        }
        return out.isEmpty ? "no member differs" : out.joined(separator: ", ")
    }

    func determinismCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        var rng = SplitMix(state: seed &+ 17)
        return passing(overMatrix(d) { t, stage, _ in
            let times = (0..<sampleCount).map { _ in t.duration * rng.unit() }
            for time in times {
                t.apply(at: time)
                // Non-finite states are never applied: the finite-states check reports those.
                if t.failure != nil { return nil }
                let first = Pose.of(stage.container)
                t.apply(at: t.duration * rng.unit())
                t.apply(at: time)
                if Pose.of(stage.container) != first {
                    return "expected the same state for the same t; t = \(time) s gave two different states"
                }
            }
            return nil
        }) { "\(sampleCount) times, each evaluated twice around another, over \($0)" }
    }

    /// Every layer's geometry and appearance, mesh included, for comparisons.
    struct Pose: Equatable {
        var values: [Double]
        static func of(_ container: View) -> Pose {
            var v: [Double] = []
            for layer in container.subviews {
                let f = layer.frame
                v += [f.x, f.y, f.width, f.height, layer.alpha, layer.zPosition, layer.isHidden ? 1 : 0] + layer.transform.values
                if let mesh = layer.mesh { for p in mesh.vertices { v += [p.x, p.y, p.z] } }
            }
            return Pose(values: v)
        }
    }

    var evaluations: Int { 500 * strictness }

    /// The ordinary container with a shared element and default parameters, for the memory and time checks.
    func ordinarySituation(for d: AnimatorDescriptor) -> Situation? {
        situations(for: d).first { $0.label.contains("ordinary") && $0.label.contains("a shared element") }
    }

    func memoryCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        guard let s = ordinarySituation(for: d) else { return (.warn, "not checked: --context leaves out the ordinary container") }
        guard case .running(let t, _) = begin(d, s) else { return (.warn, "not checked: the animator declined \(s.label)") }
        defer { end(t) }
        for k in 0..<20 { t.apply(at: t.duration * Double(k) / 20) }
        let before = heap_probe_bytes_in_use()
        let clock = MonotonicClock(), start = clock.now
        var done = 0
        while done < evaluations && clock.now - start < Self.checkTime {
            t.apply(at: t.duration * Double(done % 100) / 100)
            done += 1
        }
        let growth = Int(heap_probe_bytes_in_use()) - Int(before)
        if growth > Self.allowedGrowth {
            return (.fail, "expected no heap growth across \(done) evaluations; found \(growth) bytes more in use, \(place(s))")
        }
        return (.pass, "heap in use changed by \(growth) bytes across \(done) evaluations")
    }

    func timeCheck(_ d: AnimatorDescriptor) -> (ValidationCheck.Status, String) {
        guard let s = ordinarySituation(for: d) else { return (.warn, "not checked: --context leaves out the ordinary container") }
        guard case .running(let t, _) = begin(d, s) else { return (.warn, "not checked: the animator declined \(s.label)") }
        defer { end(t) }
        var samples: [Double] = []
        let clock = MonotonicClock(), begun = clock.now
        while samples.count < evaluations && clock.now - begun < Self.checkTime {
            let start = clock.now
            t.apply(at: t.duration * Double(samples.count % 100) / 100)
            samples.append(clock.now - start)
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let micros = String(format: "%.1f", median * 1e6)
        if median > Self.evaluationBudget {
            return (.fail, "expected at most \(Int(Self.evaluationBudget * 1e6)) µs per evaluation of all layers; found a median of \(micros) µs, \(place(s))")
        }
        return (.pass, "median \(micros) µs per evaluation of all layers (budget \(Int(Self.evaluationBudget * 1e6)) µs)")
    }
}
