/// How times are labelled wherever Segue draws them (filmstrips, the live
/// view's timeline and status line): seconds with two decimals.
public enum TimeLabel {
    /// `t` with two decimals, without Foundation: "0.08", "1.00".
    public static func seconds(_ t: Double) -> String {
        let hundredths = Int((t * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
