import Timing

/// How an animator plays a transition of a kind it may not have been written
/// for (ABI 1.3's kinds): the one place that decides it (``way(kinds:playing:)``),
/// for the container, every host that plays transitions (libsegue), the
/// config's delegate, `segue list` and `segue explain`, and the table in
/// docs/abi.md, which a test renders from it.
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
    /// How it plays the kind asked for: ``Way/asWritten`` when as asked.
    package let way: Way
    /// The transition asked for.
    package let request: TransitionContext

    /// How an animator plays a transition of one kind, by the kinds it
    /// declares: a cell of the one table (``way(kinds:playing:)``) that
    /// containers, libsegue, `segue list`, `segue explain` and docs/abi.md
    /// all read.
    package enum Way: Hashable, Sendable, CustomStringConvertible {
        /// As the animator wrote it: it declares the kind.
        case asWritten
        /// As the other window kind, `kind`, run backwards, the two views
        /// exchanged: an appearance as the disappearance of the arriving view.
        case backwards(TransitionKind)
        /// As a switch from the moving view to a transparent stand-in of its
        /// frame; for an appearance, that switch `runBackwards`.
        case switchToStandIn(runBackwards: Bool)
        /// Not at all: a switch by an animator that declares no switches. The
        /// built-in default plays it.
        case notPlayed

        /// How reports, `segue list` and the docs say it: "as written", "as a
        /// switch to a transparent stand-in run backwards".
        package var description: String {
            switch self {
            case .asWritten: "as written"
            case .backwards(let kind): "as \(kind == .appear ? "an" : "a") \(kind) run backwards"
            case .switchToStandIn(let runBackwards): "as a switch to a transparent stand-in\(runBackwards ? " run backwards" : "")"
            case .notPlayed: "not at all (the built-in default plays it)"
            }
        }
    }

    /// How an animator that declares `kinds` plays a transition of `kind`: the
    /// one table of it. Pure: the same answer for the same kinds, wherever asked.
    package static func way(kinds: TransitionKinds, playing kind: TransitionKind) -> Way {
        if kinds.contains(kind) { return .asWritten }
        switch kind {
        case .switch: return .notPlayed
        case .appear where kinds.contains(.disappear): return .backwards(.disappear)
        case .disappear where kinds.contains(.appear): return .backwards(.appear)
        case .appear, .disappear: return .switchToStandIn(runBackwards: kind == .appear)
        }
    }

    /// Why an animator that declares `kinds` cannot play `kind` ("plays only
    /// appearances and disappearances, not a switch"), after its name; nil
    /// when it can. Every host that refuses one says it in these words.
    package static func refusal(of kind: TransitionKind, kinds: TransitionKinds) -> String? {
        way(kinds: kinds, playing: kind) == .notPlayed ? onlyPlays(kinds, not: kind) : nil
    }

    /// "plays only appearances and disappearances, not a switch".
    private static func onlyPlays(_ kinds: TransitionKinds, not kind: TransitionKind) -> String {
        "plays only \(kinds.kinds.map { "\($0)s" }.joined(separator: " and ")), not a \(kind)"
    }

    /// How `animator` plays `request`, or why it cannot.
    package static func play(_ animator: any TransitionAnimator, _ request: TransitionContext) -> Result<KindPlayback, PlanError> {
        let way = way(kinds: animator.kinds, playing: request.kind)
        let from = request.fromViewController, to = request.toViewController
        func own(_ vc: ViewController) -> Rect { request.initialFrame(for: vc) }
        func context(_ kind: TransitionKind, from: ViewController, to: ViewController, goingRight: Bool) -> TransitionContext {
            let played = TransitionContext(kind: kind, from: from, to: to, containerView: request.containerView, goingRight: goingRight,
                                           isInteractive: request.isInteractive, frames: (own(from), own(to))) { request.completeTransition($0) }
            // What the host knows of the window (ABI 1.4) holds whichever way it is played.
            (played.anchor, played.windowType, played.isModal) = (request.anchor, request.windowType, request.isModal)
            return played
        }
        switch way {
        case .asWritten:
            return .success(KindPlayback(context: request, backwards: false, standIn: nil, way: way, request: request))
        case .notPlayed:
            return .failure(PlanError("\(animator.name) \(onlyPlays(animator.kinds, not: request.kind))"))
        case .backwards(let played):
            return .success(KindPlayback(context: context(played, from: to, to: from, goingRight: request.goingRight),
                                         backwards: true, standIn: nil, way: way, request: request))
        case .switchToStandIn(let runBackwards):
            let moving = runBackwards ? to : from
            let standIn = ViewController(name: "", view: View(frame: own(moving)))
            request.containerView.addSubview(standIn.view)
            let played = context(.switch, from: moving, to: standIn, goingRight: runBackwards ? !request.goingRight : request.goingRight)
            return .success(KindPlayback(context: played, backwards: runBackwards, standIn: standIn, way: way, request: request))
        }
    }

    /// `reason` (why the animator runs) with how it plays the kind, when not as asked: one wording for every host.
    package func said(in reason: String) -> String { way == .asWritten ? reason : "\(reason); played \(way)" }

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
