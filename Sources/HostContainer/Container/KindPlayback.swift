import Timing

/// How an animator plays a transition of a kind it may not have been written
/// for (ABI 1.3's kinds): the one place that decides it, for the container
/// and every host that plays transitions (libsegue).
///
/// - A kind the animator declares plays as asked.
/// - An appearance, by an animator that declares disappearances, plays as
///   the disappearance of the arriving view run backwards; a disappearance
///   by one that declares appearances, as the appearance of the leaving view
///   run backwards.
/// - Otherwise (every animator built before 1.3) a disappearance plays as a
///   switch from the leaving view to a transparent stand-in of the same frame,
///   and an appearance as that switch run backwards, its direction mirrored so
///   the view comes in from the side a switch's to view would. The view
///   beneath is not part of the transition: it stays where it is.
/// - A switch by an animator that declares no switches cannot be played.
///
/// Running backwards maps the transition's t to `duration - t`; a stand-in's
/// layer is hidden in every state. Drivers apply both through
/// ``localTime(_:duration:)`` and ``concealedLayers(of:)``.
package struct KindPlayback {
    /// The context the animator is set up with: the request itself, or the
    /// kind it plays instead, over the same views (and a stand-in).
    package let context: TransitionContext
    /// Whether the animator's time runs from its end to its start.
    package let backwards: Bool
    /// The transparent view standing in for the absent side, in the
    /// container view from setup on; the driver removes it at the end.
    package let standIn: ViewController?
    /// How it plays, for reports ("as a disappearance run backwards"); nil when as asked.
    package let how: String?
    /// The transition asked for.
    package let request: TransitionContext

    /// How `animator` plays `request`, or why it cannot.
    package static func play(_ animator: any TransitionAnimator, _ request: TransitionContext) -> Result<KindPlayback, PlanError> {
        let kinds = animator.kinds, kind = request.kind
        if kinds.contains(kind) {
            return .success(KindPlayback(context: request, backwards: false, standIn: nil, how: nil, request: request))
        }
        let from = request.fromViewController, to = request.toViewController
        func own(_ vc: ViewController) -> Rect { request.initialFrame(for: vc) }
        func context(_ kind: TransitionKind, from: ViewController, to: ViewController, goingRight: Bool) -> TransitionContext {
            TransitionContext(kind: kind, from: from, to: to, containerView: request.containerView, goingRight: goingRight,
                              isInteractive: request.isInteractive, frames: (own(from), own(to))) { request.completeTransition($0) }
        }
        switch kind {
        case .switch:
            return .failure(PlanError("\(animator.name) plays only \(kinds.kinds.map { "\($0)s" }.joined(separator: " and ")), not a switch"))
        case .appear where kinds.contains(.disappear):
            return .success(KindPlayback(context: context(.disappear, from: to, to: from, goingRight: request.goingRight),
                                         backwards: true, standIn: nil, how: "as a disappearance run backwards", request: request))
        case .disappear where kinds.contains(.appear):
            return .success(KindPlayback(context: context(.appear, from: to, to: from, goingRight: request.goingRight),
                                         backwards: true, standIn: nil, how: "as an appearance run backwards", request: request))
        case .appear, .disappear:
            let moving = kind == .appear ? to : from
            let standIn = ViewController(name: "", view: View(frame: own(moving)))
            request.containerView.addSubview(standIn.view)
            let played = context(.switch, from: moving, to: standIn,
                                 goingRight: kind == .appear ? !request.goingRight : request.goingRight)
            return .success(KindPlayback(context: played, backwards: kind == .appear, standIn: standIn,
                                         how: kind == .appear ? "as a switch to a transparent stand-in run backwards"
                                                              : "as a switch to a transparent stand-in", request: request))
        }
    }

    /// `reason` (why the animator runs) with how it plays the kind, when not as asked: one wording for every host.
    package func said(in reason: String) -> String { how.map { "\(reason); played \($0)" } ?? reason }

    /// The animator's t for the transition's `t`.
    package func localTime(_ t: Double, duration: Double) -> Double { backwards ? max(duration - t, 0) : t }

    /// Which side of the request a side of the played context shows: the
    /// same or the other; the stand-in shows the side the moving view does not.
    package func requestSide(of side: TransitionSide) -> TransitionSide {
        let played = side == .from ? context.fromViewController : context.toViewController
        if played === standIn { return requestSide(of: side == .from ? .to : .from) == .from ? .to : .from }
        return played === request.fromViewController ? .from : .to
    }

    /// The layers of `plan` that show the stand-in: hidden in every state.
    package func concealedLayers(of plan: TransitionPlan) -> [Int] {
        guard let standIn else { return [] }
        let side: TransitionSide = context.fromViewController === standIn ? .from : .to
        return plan.layers.indices.filter { plan.layers[$0].kind == .view(side) }
    }
}
