import AnimatorABI
import Foundation
import HeapProbe
import HostContainer
import PluginHost
import PluginRuntime
import Timing

// The contexts every check runs an animator over: sizes, directions, shared
// elements or not, parameter sets, and each kind of transition it declares.
extension PluginValidator {
    /// One context of the matrix, described for messages.
    struct Situation {
        var size: Rect, goingRight: Bool, shared: Bool, parameters: [Double], label: String
        /// Its number in the whole matrix.
        var index = 0
        /// What the transition does: each kind the animator was written for (ABI 1.3).
        var kind = TransitionKind.switch
    }

    func situations(for d: AnimatorDescriptor) -> [Situation] {
        let sizes: [(String, Rect)] = strictness >= 2
            ? [("tiny 24x48", Rect(x: 0, y: 0, width: 24, height: 48)), ("ordinary 390x844", .phonePortrait),
               ("huge 4096x4096", Rect(x: 0, y: 0, width: 4096, height: 4096))]
            : [("ordinary 390x844", .phonePortrait)]
        var sets: [(String, [Double])] = [("at default", d.parameters.map(\.defaultValue))]
        if strictness >= 3, !d.parameters.isEmpty {
            sets.append(("at minimum", d.parameters.map(\.minimum)))
            sets.append(("at maximum", d.parameters.map(\.maximum)))
        }
        var rng = SplitMix(state: seed)
        for k in 0..<max(strictness - 4, 0) where !d.parameters.isEmpty {
            sets.append(("fuzzed #\(k + 1) (seed \(seed))", d.parameters.map { p in
                let v = p.minimum + (p.maximum - p.minimum) * rng.unit()
                switch p.kind {
                case .number: return v
                case .integer, .choice, .curve: return v.rounded()
                case .boolean: return v < (p.minimum + p.maximum) / 2 ? p.minimum : p.maximum
                }
            }))
        }
        var result: [Situation] = []
        for kind in d.kinds.kinds {
            let kindLabel = kind == .switch ? "" : "a window's \(kind), "
            for (sizeLabel, size) in sizes {
                for goingRight in [true, false] {
                    for shared in [true, false] {
                        for (setLabel, values) in sets {
                            result.append(Situation(
                                size: size, goingRight: goingRight, shared: shared, parameters: values,
                                label: "\(kindLabel)\(sizeLabel), going \(goingRight ? "right" : "left"), \(shared ? "a shared element" : "no shared element"), parameters \(setLabel)",
                                index: result.count, kind: kind))
                        }
                    }
                }
            }
        }
        return onlyContext.map { only in result.filter { $0.index == only } } ?? result
    }

    /// How many contexts the whole matrix has for `d`, whatever `onlyContext` says.
    func matrixSize(for d: AnimatorDescriptor) -> Int {
        var whole = self
        whole.onlyContext = nil
        return whole.situations(for: d).count
    }

    /// A from and a to child in a container view, the to child not yet added;
    /// for an appearance or a disappearance, a window (its own frame, inside
    /// the container) arriving over the other or leaving it, both in the container.
    final class Stage {
        let container: View, from: ViewController, to: ViewController, context: TransitionContext
        init(_ s: Situation, poisoned: Bool = true) {
            container = View(frame: s.size)
            func child(_ name: String, element: String, frame: Rect) -> ViewController {
                let root = View(frame: s.size.bounds)
                root.backgroundColor = .white
                let e = View(name: element, frame: frame)
                e.content = .image(seed: 1)
                root.addSubview(e)
                return ViewController(name: name, view: root)
            }
            let w = s.size.width, h = s.size.height
            from = child("from", element: s.shared ? "image" : "cell", frame: Rect(x: w * 0.1, y: h * 0.2, width: w * 0.3, height: w * 0.3))
            to = child("to", element: s.shared ? "image" : "hero", frame: Rect(x: 0, y: h * 0.1, width: w, height: w))
            container.addSubview(from.view)
            to.view.frame = s.size.bounds
            guard s.kind != .switch else {
                context = TransitionContext(from: from, to: to, containerView: container, goingRight: s.goingRight) { _ in }
                context.anchor = Self.anchor(s, poisoned: poisoned)
                return
            }
            let window = s.kind == .appear ? to : from
            window.view.frame = Rect(x: w * 0.15, y: h * 0.2, width: w * 0.7, height: h * 0.5)
            container.addSubview(to.view)
            if s.kind == .disappear { container.addSubview(from.view) }  // the window on top
            context = TransitionContext(kind: s.kind, from: from, to: to, containerView: container, goingRight: s.goingRight,
                                        frames: (from.view.frame, to.view.frame)) { _ in }
            context.anchor = Self.anchor(s, poisoned: poisoned)
            context.windowType = s.shared ? .normal : .dialog
        }

        /// ABI 1.4's anchor: known (a task-bar entry at the bottom left and the pointer) in contexts without a
        /// shared element, unknown in the others, where its parts are NaN (`poisoned`) for a plugin that
        /// reads them without their flags to show it.
        static func anchor(_ s: Situation, poisoned: Bool) -> TransitionAnchor {
            guard !s.shared else {
                var unknown = TransitionAnchor.none
                unknown.poisonsUnknownParts = poisoned
                return unknown
            }
            let (w, h) = (s.size.width, s.size.height)
            return TransitionAnchor(rect: Rect(x: w * 0.05, y: h * 0.92, width: w * 0.1, height: h * 0.06), point: (w * 0.6, h * 0.3))
        }
    }

    enum Begun {
        case running(ActiveTransition, Stage)
        case declined(String)
        case unusable(String)
    }

    /// A new animator of `d` for `s`, whose calls are recorded in ``progress``.
    func animator(_ d: AnimatorDescriptor, _ s: Situation) -> any TransitionAnimator {
        let made = d.makeAnimator(parameters: s.parameters)
        guard let progress else { return made }
        progress.enter(context: s.index, label: s.label)
        return TracedAnimator(made, progress: progress)
    }

    func begin(_ d: AnimatorDescriptor, _ s: Situation, poisoned: Bool = true) -> Begun {
        let stage = Stage(s, poisoned: poisoned)
        let animator = animator(d, s)
        if case .decline(let reason) = animator.setup(stage.context) { return .declined(reason) }
        // The plan is checked by the container's own rules; a second setup is harmless (setup may run again).
        switch ActiveTransition.begin(self.animator(d, s), context: stage.context) {
        case .success(let t): return .running(t, stage)
        case .failure(let why): return .unusable(why.description)
        }
    }

    func end(_ t: ActiveTransition) {
        t.tearDown()
        t.animator.animationEnded(false)
    }

    /// Where in the matrix `s` is, and the command that runs it alone, as
    /// a crash's report says it: "context 5 of the matrix (ordinary 390x844,
    /// ...); to run that context alone: segue validate ... --context 5".
    func place(_ s: Situation) -> String {
        let again = ["segue", "validate", path, "--strictness", "\(strictness)", "--seed", "\(seed)", "--context", "\(s.index)", "--in-process"]
        return "in context \(s.index) of the matrix (\(s.label)); to run that context alone: \(again.joined(separator: " "))"
    }

    /// Runs `body` on every transition the matrix animates; the first problem ends the check.
    func overMatrix(_ d: AnimatorDescriptor, problem status: ValidationCheck.Status = .fail,
                    _ body: (ActiveTransition, Stage, Situation) -> String?) -> (ValidationCheck.Status, String) {
        var animated = 0
        for s in situations(for: d) {
            guard case .running(let t, let stage) = begin(d, s) else { continue }
            defer { end(t) }
            animated += 1
            if let problem = body(t, stage, s) { return (status, "\(problem), \(place(s))") }
        }
        if animated == 0, let only = onlyContext, situations(for: d).isEmpty {
            return (.warn, "not checked: --context \(only) is not in the matrix")
        }
        return animated == 0 ? (.warn, "not checked: the animator declined every context") : (.pass, "\(animated) context(s)")
    }
}

/// SplitMix64: a small, seedable generator, so that fuzzed parameters replay.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// The standard library's random API over it (`Int.random(in:using:)`).
extension SplitMix: RandomNumberGenerator {}
