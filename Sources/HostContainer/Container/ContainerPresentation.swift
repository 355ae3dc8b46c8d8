import Timing

// Presentation, UIKit's over the current context: a child presented over the
// shown one with an appearance, dismissed with a disappearance.
extension ContainerViewController {
    /// Presents `child` over the shown child with an appearance, played by
    /// the delegate's animator for it (``ContainerViewControllerDelegate``).
    /// While a transition runs, the presentation waits for it (which hurries,
    /// as for a selection); presenting the child a running dismissal takes
    /// away reverses the dismissal.
    /// - Parameter frame: its frame in the container; nil for the container's bounds.
    /// - Throws: ``PresentationError`` when a child is presented already (or
    ///   will be, once what runs and waits has played), when `child` is one of
    ///   the container's children, or when no child is shown.
    public func present(_ child: ViewController, frame: Rect? = nil) throws(PresentationError) {
        guard !viewControllers.contains(where: { $0 === child }) else { throw .isAChild(child.name) }
        guard selectedViewController != nil else { throw .nothingShown }
        if let presented = presentedAfterAll { throw .alreadyPresenting(presented.name) }
        if pendingPresentations.isEmpty, let running = active, running.request.kind == .disappear,
           running.request.fromViewController === child, running.playhead.target == 1 {
            steer(running, toward: 0)
        } else {
            request(.present(child, frame: frame))
        }
    }

    /// Takes the presented child away with a disappearance, revealing the
    /// shown child; waits like ``present(_:frame:)``, and reverses a running
    /// appearance of that child.
    /// - Throws: ``PresentationError/nothingPresented`` when no child is
    ///   presented (or will be).
    public func dismissPresented() throws(PresentationError) {
        guard let presented = presentedAfterAll else { throw .nothingPresented }
        if pendingPresentations.isEmpty, let running = active, running.request.kind == .appear,
           running.request.toViewController === presented, running.playhead.target == 1 {
            steer(running, toward: 0)
        } else {
            request(.dismiss)
        }
    }

    private func request(_ presentation: PresentationRequest) {
        guard isSwitching || active != nil else {
            switch presentation {
            case .present(let child, let frame): startPresentation(.appear, of: child, frame: frame)
            case .dismiss: startPresentation(.disappear, of: presentedViewController!, frame: nil)
            }
            return
        }
        pendingPresentations.append(presentation)
        if let running = active, let target = running.playhead.target {
            steer(running, toward: target, within: Self.hurryDuration)
        }
    }

    /// The child presented once what runs and what waits has played.
    private var presentedAfterAll: ViewController? {
        var presented = presentedViewController
        if let running = active, running.request.kind != .switch {
            let arrives = running.playhead.target != 0
            let child = running.request.kind == .appear ? running.request.toViewController : running.request.fromViewController
            presented = (running.request.kind == .appear) == arrives ? child : nil
        }
        for request in pendingPresentations {
            if case .present(let child, _) = request { presented = child } else { presented = nil }
        }
        return presented
    }
}

/// Why a presentation or a dismissal could not be asked for.
public enum PresentationError: Error, Equatable, CustomStringConvertible {
    case alreadyPresenting(String)
    case nothingPresented
    case isAChild(String)
    case nothingShown

    /// The error in words.
    public var description: String {
        switch self {
        case .alreadyPresenting(let name): "'\(name)' is presented already; dismiss it first"
        case .nothingPresented: "no child is presented"
        case .isAChild(let name): "'\(name)' is one of the container's children; present a view controller of its own"
        case .nothingShown: "the container shows no child to present over"
        }
    }
}

