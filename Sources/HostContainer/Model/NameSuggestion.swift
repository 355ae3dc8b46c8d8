/// "Did you mean": the one way Segue guesses which name a person meant, for
/// children, animators, parameters, curves and config keys alike.
public enum NameSuggestion {
    /// The candidate closest to `name`: one equal to it but for case first,
    /// else the nearest within a third of its length in edits (insertions,
    /// deletions, substitutions and swaps of neighbours, compared without
    /// case), the first of equals. Nil when none is that close; a name of one
    /// or two letters is too short to guess from.
    /// - Complexity: O(n · m²) for n candidates of about m characters: it serves messages only.
    public static func closest(to name: String, in candidates: [String]) -> String? {
        let folded = name.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == folded }) { return same }
        let limit = name.count / 3
        guard limit > 0 else { return nil }
        return candidates.map { ($0, distance(folded, $0.lowercased())) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// `" (did you mean 'X'?)"` for the closest candidate, or "" when there is none:
    /// the phrase every message that names an unknown name appends.
    public static func hint(for name: String, in candidates: [String]) -> String {
        closest(to: name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Edits from `a` to `b` (optimal string alignment), the typos people make.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
