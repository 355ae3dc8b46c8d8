import Foundation
import HostContainer
import PluginRuntime

/// What `run` and `preview` say after a transition whose animator evaluated
/// too slowly for a display: a virtual clock plays any animator smoothly,
/// so without it a slow one would pass unnoticed until it stutters in a real host.
enum SlowEvaluation {
    /// The median one evaluation may take here: 4 ms, as long as libsegue lets
    /// a render thread wait for a plugin (its sample bound); past it, a host's
    /// frames hold the plugin's older states. (`segue validate`'s budget,
    /// 1 ms, is for an evaluation alone; here it is the worker's round trip,
    /// on a machine that may be busy.)
    static let budget = 0.004

    /// "TestFade took a median 50.2 ms per evaluation, at most 51.0 ms (budget
    /// 4 ms; a frame at 60 Hz is 16.7 ms): it will stutter"; nil when the
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
