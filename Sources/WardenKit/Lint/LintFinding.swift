/// One finding: a rule, the object it is about, what the catalog says, and what a
/// rolled-back probe as a persona showed it lets that persona do.
public struct LintFinding: Sendable, Equatable, Codable {
    /// The kind of object a finding names.
    public enum ObjectKind: String, Sendable, Codable {
        case table, view, materializedView = "materialized view", foreignTable = "foreign table", function, `extension`
    }

    public var rule: LintRule
    public var kind: ObjectKind
    public var schema: String
    /// The object's name (a function's signature is in `signature`).
    public var name: String
    /// For a function: `schema.name(types)`, as an access plan names it.
    public var signature: String?
    /// What the catalog shows, in one sentence.
    public var detail: String
    /// What the probe showed, when the rule has one.
    public var consequence: LintConsequence?
    /// Whether an access plan declares this consequence (set by `LintReport.judged(by:)`).
    public var intended: Bool = false
    /// The migration file and line that created the object, when found (for a policy
    /// finding, the policy's own statement: see `MigrationObjectLocator`).
    public var location: LintLocation?
    /// For a finding about policies: their names (one, or several for
    /// `multiple_permissive_policies`); nil for other findings.
    public var policies: [String]?

    /// `schema.name`, or the function's signature, or the extension's name.
    public var subject: String {
        if let signature { return signature }
        return kind == .extension ? name : "\(schema).\(name)"
    }

    /// A danger: a security finding not declared by the plan, whose probe proved a
    /// consequence, or, where nothing was probed, one splinter rates ERROR. Harmless
    /// probes, intended findings, performance and INFO findings are not dangers.
    public var isDanger: Bool {
        guard rule.isSecurity, !intended else { return false }
        switch consequence?.verdict {
        case .proven: return true
        case .harmless: return false
        case .notProbed, nil: return rule.level == .error
        }
    }

    /// `danger`, `intended`, `harmless` or the rule's level in lower case.
    public var status: String {
        if intended { return "intended" }
        if isDanger { return "danger" }
        if consequence?.verdict == .harmless { return "harmless" }
        return rule.level.rawValue.lowercased()
    }
}

/// What a probe as a persona showed a finding lets it do.
public struct LintConsequence: Sendable, Equatable, Codable {
    public enum Verdict: String, Sendable, Codable {
        /// The probe did what the finding warns of (rows seen, rows changed, a call that went through).
        case proven
        /// The probe shows nothing happens.
        case harmless
        /// The probe could not run (its error is in the evidence).
        case notProbed = "not probed"
    }

    public var verdict: Verdict
    /// One line per probe, e.g. "anon called public.f(1): succeeded, deleted 1 row of public.t".
    public var evidence: [String]
    /// Personas the probe proved something for (anon, ava, ben).
    public var personas: [String] = []

    public init(verdict: Verdict, evidence: [String], personas: [String] = []) {
        self.verdict = verdict
        self.evidence = evidence
        self.personas = personas
    }
}

/// A migration file and line.
public struct LintLocation: Sendable, Equatable, Codable {
    public var file: String
    public var line: Int
}
