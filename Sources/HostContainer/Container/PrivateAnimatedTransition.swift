import AnimatorABI
import Timing

/// The container's built-in default animator, described as any animator in a
/// catalog is: what runs when no animator is chosen, or when the chosen one
/// declines or fails. The plugin host lists it beside plugins under ``name``.
public enum DefaultAnimator {
    /// The name config rules and the command line use for it.
    public static let name = "default"
    /// Its id, in the place of a plugin animator's reverse-DNS id.
    public static let id = "builtin"
    /// The version of its behaviour.
    public static let version = "1.0.0"
    /// What it does, for people.
    public static let summary = "The container's private default animator: the to view slides in from one side and fades in while the from view slides out the other side and fades out, on a spring; a window opens growing from 85% and fading in, and closes shrinking and fading out, on the same spring, rounded and casting a shadow. Its parameters default to the values of the original article; a rule naming \"default\" may set them."
    /// Its parameters (duration, damping, velocity, padding, curve), in the order values are passed.
    public static var parameters: [ParameterDescriptor] { PrivateAnimatedTransition.parameters }
    /// The kinds it was written for: all three. A window opens as a desktop's
    /// own Scale effect opens one, visible from the first frames: it grows
    /// from 85% of its size to its own about its centre while it fades in,
    /// twice as fast as it grows; it closes shrinking to 85% as it fades out.
    /// Both follow the spring's forward motion (never run backwards), so the
    /// change is quickest at the start.
    public static let kinds: TransitionKinds = [.switches, .appearances, .disappearances]

    /// A new default animator for one transition, with `values` in
    /// ``parameters`` order, checked against them (a spring that cannot be
    /// solved keeps the standard one).
    /// - Parameter curves: where a `curve` value (an index) finds its control points.
    public static func make(values: [Double]? = nil, curves: CurveBook = .standard) -> any TransitionAnimator {
        PrivateAnimatedTransition(values: values ?? parameters.map(\.defaultValue), curves: curves)
    }
}

/// The container's private default animator (the objc.io article's
/// `PrivateAnimatedTransition`): the to view slides in from one side and fades
/// in while the from view slides out the other side and fades out, on a spring.
///
/// It reads the frames only for the direction, so frames that carry no
/// direction always slide the same way, as in the article.
final class PrivateAnimatedTransition: TransitionAnimator {
    static let childPadding = 16.0
    static let damping = 0.75
    static let initialSpringVelocity = 0.5
    static let transitionDuration = 1.0

    /// Its parameters, the original article's constants as defaults: a rule naming
    /// "default" may set them like any animator's.
    static let parameters: [ParameterDescriptor] = [
        ParameterDescriptor(name: "duration", explanation: "Length of the transition, in seconds.",
                            kind: .number, defaultValue: transitionDuration, minimum: 0.05, maximum: 10),
        ParameterDescriptor(name: "damping", explanation: "Damping ratio of the spring: 1 settles without overshoot, less bounces.",
                            kind: .number, defaultValue: damping, minimum: 0.05, maximum: 1),
        ParameterDescriptor(name: "velocity", explanation: "Initial velocity of the spring, in travels per second.",
                            kind: .number, defaultValue: initialSpringVelocity, minimum: -20, maximum: 20),
        ParameterDescriptor(name: "padding", explanation: "Points between the children as they slide.",
                            kind: .number, defaultValue: childPadding, minimum: 0, maximum: 400),
        ParameterDescriptor(name: "curve", explanation: "\"spring\" follows the spring above; a curve's name follows that curve instead.",
                            // The ABI's curve range (0, linear, to 4, default), and below it its own "spring".
                            kind: .curve, defaultValue: ParameterDescriptor.springCurve, minimum: ParameterDescriptor.springCurve,
                            maximum: Double(SEGUE_CURVE_DEFAULT.rawValue)),
    ]

    let name = DefaultAnimator.name
    let source = AnimatorSource.builtin
    var kinds: TransitionKinds { DefaultAnimator.kinds }

    /// The size a window opens from and closes to, as a fraction of its own.
    static let windowScale = 0.85
    /// A window's corners and shadow while it opens or closes (a switch has neither).
    static let windowCornerRadius = 12.0
    static let windowShadow = Shadow(radius: 24, offsetX: 0, offsetY: 8, color: Color(red: 0, green: 0, blue: 0, alpha: 0.4))

    private let duration: Double
    private let padding: Double
    private let spring: Spring
    /// When set, the progress follows this curve instead of the spring.
    private let curve: TimingCurve?
    /// The from view's x translation at the end; the to view starts at its inverse.
    private var travel = 0.0
    /// What it plays: a switch (two layers), or a window opening or closing (one).
    private var kind = TransitionKind.switch

    /// The default with the article's values, or with `values` in ``parameters``
    /// order (validated already; a spring that cannot be solved keeps the article's).
    /// - Parameter curves: where a `curve` value (an index) finds its control points.
    init(values: [Double] = parameters.map(\.defaultValue), curves: CurveBook = .standard) {
        let standard = Spring(duration: Self.transitionDuration, dampingRatio: Self.damping, initialVelocity: Self.initialSpringVelocity)!
        guard values.count == Self.parameters.count,
              let tuned = Spring(duration: values[0], dampingRatio: values[1], initialVelocity: values[2]) else {
            (duration, padding, spring, curve) = (Self.transitionDuration, Self.childPadding, standard, nil)
            return
        }
        if let physical = curves.spring(at: values[4]) {
            // A config's physical spring: its motion, and as long as it takes to settle.
            (duration, padding, spring, curve) = (physical.duration, values[3], physical, nil)
            return
        }
        (duration, padding, spring) = (values[0], values[3], tuned)
        curve = values[4] == ParameterDescriptor.springCurve ? nil : curves.curve(at: values[4])
    }

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        kind = context.kind
        switch kind {
        case .appear: return .animate(TransitionPlan(duration: duration, layers: [LayerRequest(.view(.to))]))
        case .disappear: return .animate(TransitionPlan(duration: duration, layers: [LayerRequest(.view(.from))]))
        case .switch: break
        }
        let to = context.toViewController
        let goingRight = context.initialFrame(for: to).x < context.finalFrame(for: to).x
        let travelDistance = context.containerView.bounds.width + padding
        travel = goingRight ? travelDistance : -travelDistance
        return .animate(TransitionPlan(
            duration: duration, layers: [LayerRequest(.view(.from)), LayerRequest(.view(.to))]))
    }

    func evaluate(at t: Double, layers: LayerStates) {
        let p = curve.map { $0.value(at: t / duration) } ?? spring.value(at: t)
        if kind != .switch {
            // How far the window is from shown: 1 to 0 as it opens, 0 to 1 as it closes.
            let away = kind == .appear ? 1 - p : p
            let size = 1 - (1 - Self.windowScale) * away
            layers[0].transform = .scale(size, size)
            // Opening, the fade runs twice as fast as the motion (all of it in the
            // spring's first half), so the window shows at once; closing, with it.
            let shown = kind == .appear ? 2 * p : 1 - p
            layers[0].alpha = min(max(shown, 0), 1)
            // ABI 1.4's look: rounded (the radius in the window's own points, so it keeps its size as the window
            // scales) and casting a soft shadow, as desktops draw windows.
            let frame = layers[0].frame
            layers[0].cornerRadius = min(Self.windowCornerRadius / max(size, 0.05), max(min(frame.width, frame.height), 0) / 2)
            layers[0].shadow = Self.windowShadow
            return
        }
        layers[0].transform = .translation(travel * p, 0)
        // The slide overshoots with the spring; opacity cannot, so it stops at 0 and 1 (as Core Animation's does).
        let opacity = min(max(p, 0), 1)
        layers[0].alpha = 1 - opacity
        layers[1].transform = .translation(-travel * (1 - p), 0)
        layers[1].alpha = opacity
    }

    func animationEnded(_ completed: Bool) {}
}
