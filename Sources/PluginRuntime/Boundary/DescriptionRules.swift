import AnimatorABI
import Timing

// The ABI's rules for what a plugin describes, checked on plain data: on what
// this process read from a plugin's structs (``DescriptorReader``, which checks
// only what the memory alone can tell) and, again, on what a scanner process
// answered. Messages name the member, what was expected and what was found.

extension PluginBoundary {
    /// `description` with every text escaped (``PluginText``), or why it
    /// breaks the ABI's rules. Everything checkable on the data is checked
    /// here, so a scanner's answer gets the same scrutiny as the plugin's own
    /// structs.
    package static func validated(_ description: PluginDescription) -> Result<PluginDescription, LoadFailure> {
        let animators = description.animators
        if let problem = Limit.animatorCount(animators.count) { return malformed(problem) }
        // Messages are built only on failure: the host validates every file a scan returns.
        var clean: [AnimatorDescription] = []
        clean.reserveCapacity(animators.count)
        for (i, a) in animators.enumerated() {
            func path() -> String { "animators[\(i)]" }
            for (member, text, limit) in [("id", a.id, SEGUE_MAX_ID), ("name", a.name, SEGUE_MAX_NAME),
                                          ("version", a.version, SEGUE_MAX_VERSION),
                                          ("description", a.summary, SEGUE_MAX_DESCRIPTION)] {
                if let problem = Limit.length(of: text, at: "\(path()).\(member)", limit) { return malformed(problem) }
            }
            if !isValidID(a.id) {
                return malformed("\(path()).id is \"\(PluginText.escaped(a.id))\"; expected a reverse-DNS name, a slash and a revision, like \"com.example.spring-slide/1\"")
            }
            if !isValidName(a.name) {
                return malformed("\(path()).name is \"\(PluginText.escaped(a.name))\"; expected a letter then letters, digits, '-' or '_', like \"SpringSlide\"")
            }
            if a.version.isEmpty { return malformed("\(path()).version is empty; expected a version like \"1.0.0\"") }
            if let problem = Limit.parameterCount(a.parameters.count, at: "\(path()).param_count (\(a.name))") {
                return malformed(problem)
            }
            var parameters: [ParameterDescriptor] = []
            parameters.reserveCapacity(a.parameters.count)
            for (k, p) in a.parameters.enumerated() {
                func at() -> String { "\(path()).params[\(k)] (\(a.name))" }
                if let problem = problem(in: p, at: at) { return malformed(problem) }
                if parameters.contains(where: { $0.name == p.name }) {
                    return malformed("\(at()) repeats the parameter name '\(p.name)'")
                }
                parameters.append(p.escaped())
            }
            // Ids hold a slash and names cannot, so the two never collide.
            if let earlier = clean.firstIndex(where: { $0.id == a.id }) {
                return malformed("animators[\(i)] repeats '\(a.id)' of animators[\(earlier)]")
            }
            if let earlier = clean.firstIndex(where: { $0.name == a.name }) {
                return malformed("animators[\(i)] repeats '\(a.name)' of animators[\(earlier)]")
            }
            clean.append(AnimatorDescription(
                id: a.id, name: a.name, version: PluginText.escaped(a.version), summary: PluginText.escaped(a.summary),
                parameters: parameters, kinds: a.kinds))
        }
        return .success(PluginDescription(animators: clean))
    }

    /// A failure in the descriptor: "malformed descriptor: " and `problem`.
    static func malformed<T>(_ problem: String) -> Result<T, LoadFailure> {
        var failure = LoadFailure("malformed descriptor: " + problem)
        failure.inDescriptor = true
        return .failure(failure)
    }

    /// The ABI's limits on counts and lengths, each with its message. The
    /// descriptor reader applies the counts before it walks an array (a count
    /// from plugin memory is never trusted as a loop bound), ``validated(_:)``
    /// applies all of them.
    enum Limit {
        static func animatorCount(_ n: Int) -> String? {
            if n == 0 { return "segue_plugin_t.animator_count is 0; a plugin exports at least one animator" }
            if n > Int(SEGUE_MAX_ANIMATORS) { return "segue_plugin_t.animator_count is \(n), at most \(SEGUE_MAX_ANIMATORS) are allowed" }
            return nil
        }

        static func parameterCount(_ n: Int, at path: @autoclosure () -> String) -> String? {
            n > Int(SEGUE_MAX_PARAMS) ? "\(path()) is \(n); at most \(SEGUE_MAX_PARAMS) are allowed" : nil
        }

        /// `at` names the parameter ("animators[0].params[1] (Flip) 'axis'").
        static func choiceCount(_ n: Int, at path: @autoclosure () -> String) -> String? {
            if n == 0 { return "\(path()) is a choice with no choices (choices NULL or choice_count 0)" }
            if n > Int(SEGUE_MAX_CHOICES) { return "\(path()) has \(n) choices; at most \(SEGUE_MAX_CHOICES) are allowed" }
            return nil
        }

        static func length(of text: String, at path: @autoclosure () -> String, _ limit: Int32) -> String? {
            text.utf8.count > Int(limit) ? "\(path()) is longer than \(limit) bytes (the most this ABI allows)" : nil
        }
    }

    private static func problem(in p: ParameterDescriptor, at path: () -> String) -> String? {
        if let problem = Limit.length(of: p.name, at: "\(path()).name", SEGUE_MAX_PARAM_NAME) { return problem }
        if let problem = Limit.length(of: p.explanation, at: "\(path()).explanation", SEGUE_MAX_DESCRIPTION) { return problem }
        guard isValidParameterName(p.name) else {
            return "\(path()).name is \"\(PluginText.escaped(p.name))\"; expected an identifier: a letter or '_', then letters, digits or '_'"
        }
        func at() -> String { "\(path()) '\(p.name)'" }
        let (lo, hi, def) = (p.minimum, p.maximum, p.defaultValue)
        guard lo.isFinite, hi.isFinite, def.isFinite else {
            return "\(at()) has a non-finite default, min or max (\(def), \(lo), \(hi))"
        }
        guard lo <= hi else { return "\(at()) has min \(lo) greater than max \(hi)" }
        guard def >= lo, def <= hi else { return "\(at()) has default \(def) outside [min, max] = [\(lo), \(hi)]" }
        switch p.kind {
        case .choice(let choices):
            if let problem = Limit.choiceCount(choices.count, at: at()) { return problem }
            for (c, choice) in choices.enumerated() where choice.isEmpty || choice.utf8.count > Int(SEGUE_MAX_PARAM_NAME) {
                return "\(path()).choices[\(c)] is empty or longer than \(SEGUE_MAX_PARAM_NAME) bytes"
            }
            guard lo == 0, hi == Double(choices.count - 1) else {
                return "\(at()) is a choice of \(choices.count), so min must be 0 and max \(choices.count - 1); found \(lo) and \(hi)"
            }
        case .boolean:
            if lo != 0 || hi != 1 { return "\(at()) is a boolean, so min must be 0 and max 1; found \(lo) and \(hi)" }
        case .curve:
            if lo != 0 || hi != Double(TimingCurve.named.count - 1) {
                return "\(at()) is a curve (its default a segue_curve_t), so min must be 0 and max \(TimingCurve.named.count - 1); found \(lo) and \(hi)"
            }
        case .number, .integer: break
        }
        if p.kind != .number && def != def.rounded() {
            return "\(at()) is \(p.kind.withArticle) with the fractional default \(def)"
        }
        return nil
    }

    // The rules are ASCII-only, so they are checked on bytes: the registry checks every cached id and name at startup.

    /// `[a-z0-9.-]+/[0-9]+`, the domain with a dot, not at either end.
    package static func isValidID(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > 0 else { return false }
            let domain = bytes[..<slash], revision = bytes[(slash + 1)...]
            guard !revision.isEmpty, revision.allSatisfy(isDigit), domain.contains(UInt8(ascii: ".")),
                  domain.first != UInt8(ascii: "."), domain.last != UInt8(ascii: ".") else { return false }
            return domain.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        }
    }

    /// `[A-Za-z][A-Za-z0-9_-]*`.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`.
    static func isValidParameterName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private static func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
    private static func isLetter(_ b: UInt8) -> Bool { isLower(b | 0x20) }
}

extension ParameterDescriptor {
    /// The parameter with its free text escaped (its name and choices are checked identifiers).
    fileprivate func escaped() -> ParameterDescriptor {
        var safeKind = kind
        if case .choice(let choices) = kind { safeKind = .choice(choices.map { PluginText.escaped($0) }) }
        return ParameterDescriptor(name: name, explanation: PluginText.escaped(explanation), kind: safeKind,
                            defaultValue: defaultValue, minimum: minimum, maximum: maximum)
    }
}
