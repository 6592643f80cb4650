/// One probe's verdict: who tried what on which object, what the plan expected and
/// what the database did.
public struct ProbeResult: Sendable, Equatable {
    public enum SubjectKind: String, Sendable {
        case relation, function, check
    }

    public var subjectKind: SubjectKind
    /// `schema.relation`, `schema.function(args)`, or a check's name.
    public var subject: String
    /// The persona, or nil for facts about the object itself (columns, planned at all).
    public var persona: String?
    /// The operation it belongs to in the matrix, when there is one.
    public var operation: AccessOperation?
    /// What was tried, e.g. `update another user's row`.
    public var probe: String
    public var expected: String
    public var observed: String
    public var passed: Bool

    /// A stable one-line name, used as the test-case name in JUnit and TAP.
    public var name: String {
        [persona, subject, probe].compactMap { $0 }.joined(separator: " · ")
    }
}

/// Everything a run found.
public struct AccessPlanReport: Sendable {
    public var planSource: String
    public var personas: [Persona]
    /// Relations in matrix order (planned first, then unplanned).
    public var relations: [String]
    public var functions: [String]
    public var access: [String: [String: Access]]
    public var execute: [String: [String: Bool]]
    public var results: [ProbeResult]
    public var duration: Duration
    /// What the rollback cannot undo that a probe may have reached (dblink, a foreign
    /// table, NOTIFY, COPY TO PROGRAM), one line each; see `UndoableSideEffects`.
    public var undoableSideEffects: [String] = []
    /// pgwarden's local stand-ins the database uses (pg_net, http, pgjwt, ...): what
    /// reached them is not provable locally; see `StandInExtensions`.
    public var standIns: [String] = []
    /// Policies and functions that read `session_user`, which is `authenticator` in a
    /// PostgREST request but the run's own login in its probes; see `SessionUserReaders`.
    public var sessionUserReaders: [String] = []
    /// Signed-in persona -> the claims of the token it was issued (JSON text), as a
    /// custom access token hook left them; the tokens themselves are never kept.
    package var issuedClaims: [String: String] = [:]

    public var failures: [ProbeResult] { results.filter { !$0.passed } }
    public var passed: Bool { failures.isEmpty }
}
