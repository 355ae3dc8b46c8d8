import Foundation
import HostContainer
import PluginRuntime
import PluginValidation

/// What `run` and `preview` say after a transition whose animator evaluated
/// too slowly for a display: a virtual clock plays any animator smoothly,
/// so without it a slow one would pass unnoticed until it stutters in a real host.
enum SlowEvaluation {
    /// The budget one evaluation has: `segue validate`'s.
    static let budget = PluginValidator.evaluationBudget

    /// "TestFade took a median 50.2 ms per evaluation, at most 51.0 ms (budget
    /// 1 ms; a frame at 60 Hz is 16.7 ms): it will stutter"; nil when the
    /// animator that finished `report`'s transition was fast enough.
    static func warning(_ report: TransitionReport) -> String? {
        guard let timing = report.evaluation, timing.isSlow(budget: budget) else { return nil }
        let over = timing.overAFrame > 0 && timing.median <= EvaluationTiming.frameAt60Hz
            ? ", \(timing.overAFrame) of \(timing.count) longer than a frame" : ""
        return "\(PluginText.escaped(report.animator)) took a median \(ms(timing.median)) per evaluation, at most \(ms(timing.slowest))\(over)"
            + " (budget \(ms(budget, digits: 0)); a frame at 60 Hz is \(ms(EvaluationTiming.frameAt60Hz))): "
            + (timing.missesFrames ? "it will stutter" : "it leaves a host little of each frame, and may stutter")
    }

    /// `seconds` in milliseconds: "50.2 ms".
    static func ms(_ seconds: Double, digits: Int = 1) -> String { String(format: "%.\(digits)f ms", seconds * 1000) }

    /// How `run --json` carries the timing, in seconds.
    struct JSON: Encodable {
        let count: Int
        let median, slowest: Double
        /// Whether `run` warned of it.
        let slow: Bool

        init(_ timing: EvaluationTiming) {
            (count, median, slowest) = (timing.count, timing.median, timing.slowest)
            slow = timing.isSlow(budget: SlowEvaluation.budget)
        }
    }
}
