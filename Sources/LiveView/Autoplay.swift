import HostConfig
import HostContainer

/// Plays a config's script in the live view, as `segue show --play` does: each
/// step once the one before has ended and the child has been seen for a
/// moment; an interactive step as a drag from the left edge through its
/// fractions, one per frame, let go by the edge-pan rule. The script starts
/// over at its end. People can take over at any time: a step waits while a
/// gesture or a replay runs.
public final class Autoplay {
    let steps: [ScriptStep]
    private var next = 0
    private var restUntil = 0.0
    private var drag: (fractions: [Double], index: Int)?
    /// Seconds a child is shown between steps.
    public static let hold = 0.4

    /// A player of `steps`.
    public init(steps: [ScriptStep]) { self.steps = steps }

    /// The input that plays the script on at this frame (`now`: wall seconds).
    public func inputs(for session: LiveSession, now: Double) -> [LiveInput] {
        guard !steps.isEmpty else { return [] }
        let y = session.size.height / 2, width = session.size.width
        if var drag {
            drag.index += 1
            self.drag = drag
            let x = 5 + drag.fractions[min(drag.index, drag.fractions.count - 1)] * width
            if drag.index >= drag.fractions.count {
                self.drag = nil
                restUntil = .infinity
                return [.pointer(.up, x: x, y: y, time: now)]
            }
            return [.pointer(.moved, x: x, y: y, time: now)]
        }
        guard !session.container.isTransitioning, !session.isReviewing else {
            restUntil = .infinity
            return []
        }
        if restUntil == .infinity { restUntil = now + Self.hold }
        guard now >= restUntil else { return [] }
        let step = steps[next % steps.count]
        next += 1
        restUntil = .infinity
        guard let index = session.childNames.firstIndex(of: step.child) else { return [] }
        if let fractions = step.interactive, !fractions.isEmpty, index == session.heading - 1 {
            drag = (fractions, 0)
            return [.pointer(.down, x: 5, y: y, time: now), .pointer(.moved, x: 5 + fractions[0] * width, y: y, time: now)]
        }
        session.select(index)
        return []
    }
}
