import Foundation

/// The rules read from a policy's expressions (as `pg_get_expr` prints them with an
/// empty search_path, so functions are schema-qualified): always true, reading
/// user_metadata from the JWT, and auth functions evaluated per row.
struct LintPolicyRules {
    struct Policy {
        var schema: String
        var table: String
        var name: String
        /// pg_policy.polcmd: r select, a insert, w update, d delete, * all.
        var command: String
        var permissive: Bool
        /// The policy applies to public, anon or authenticated.
        var forAPIRoles: Bool
        var roles: String
        var using: String?
        var check: String?

        var commandName: String {
            ["r": "select", "a": "insert", "w": "update", "d": "delete"][command] ?? "all"
        }
    }

    let policies: [Policy]

    func findings() throws -> [LintFinding] {
        policies.flatMap { policy -> [LintFinding] in
            var found: [LintFinding] = []
            func finding(_ rule: LintRule, _ detail: String) -> LintFinding {
                LintFinding(rule: rule, kind: .table, schema: policy.schema, name: policy.table,
                            detail: "policy \"\(policy.name)\" on \(policy.schema).\(policy.table) (\(policy.commandName), to \(policy.roles)) " + detail,
                            policies: [policy.name])
            }
            if let clauses = alwaysTrue(policy) {
                found.append(finding(.rlsPolicyAlwaysTrue, "lets every row through: \(clauses) always true"))
            }
            if [policy.using, policy.check].contains(where: { $0.map(Self.readsUserMetadata) ?? false }) {
                found.append(finding(.rlsReferencesUserMetadata,
                    "reads user_metadata from the JWT, which signed-in users may change themselves"))
            }
            let calls = [policy.using, policy.check].compactMap { $0 }.flatMap(Self.perRowCalls)
                .reduce(into: [String]()) { kept, call in if !kept.contains(call) { kept.append(call) } }
            if !calls.isEmpty {
                let wrapped = calls.map { "(select \($0))" }.joined(separator: ", ")
                found.append(finding(.authRLSInitplan, "calls \(calls.joined(separator: ", ")) for every row; "
                    + "wrap \(calls.count == 1 ? "it" : "each") as \(wrapped)"))
            }
            return found
        }
    }

    private static func isTrue(_ expression: String?) -> Bool {
        guard let expression else { return false }
        let compact = expression.lowercased().filter { !$0.isWhitespace }
        return ["true", "(true)", "1=1", "(1=1)"].contains(compact)
    }

    /// Which clause of a permissive write policy for the API roles is always true
    /// (select policies with `true` are usually on purpose, as splinter also holds).
    private func alwaysTrue(_ policy: Policy) -> String? {
        guard policy.permissive, policy.forAPIRoles else { return nil }
        let writesRows = ["w", "d", "*"].contains(policy.command)
        // A missing clause lets nothing through: a policy with no USING adds no row to the
        // permissive policies' OR, one for INSERT with no WITH CHECK admits no new row
        // (PostgreSQL 15, tried: `for delete` and `for insert` with neither clause, `for
        // all with check (...)`, each hid or refused every row). `for all with check (owner
        // = auth.uid())` was "USING is always true". An UPDATE or ALL policy's missing
        // WITH CHECK is its USING, as PostgreSQL's CREATE POLICY documents.
        let using = writesRows && Self.isTrue(policy.using)
        let check = Self.isTrue(policy.check)
            || (policy.check == nil && ["w", "*"].contains(policy.command) && Self.isTrue(policy.using))
        switch (using, check) {
        case (true, true): return "USING and WITH CHECK are"
        case (true, false): return "USING is"
        case (false, true): return "WITH CHECK is"
        default: return nil
        }
    }

    // Regex literals: checked by the compiler, nothing to fail at run time.
    static func readsUserMetadata(_ expression: String) -> Bool {
        expression.firstMatch(of: userMetadataRead) != nil
    }

    /// The calls to an auth function or `current_setting` not wrapped in a scalar subquery
    /// (`( SELECT auth.uid() AS uid)`), which the planner runs once as an initplan instead
    /// of once per row, in order: as the advice names them (`auth.jwt()`,
    /// `current_setting(...)`; a policy calling only auth.jwt() was told to wrap auth.uid()).
    static func perRowCalls(_ expression: String) -> [String] {
        let wrapped = Set(expression.matches(of: wrappedCall).map { $0.output.call.startIndex })
        return expression.matches(of: call)
            .filter { !wrapped.contains($0.range.lowerBound) }
            .map { call in
                let text = String(expression[call.range]).lowercased()
                return text.hasSuffix("()") ? text : text + "...)"
            }
    }

    // Made once: a regex literal is parsed again each time it is evaluated (a third of
    // lint's client time on a 345-table project).
    nonisolated(unsafe) private static let wrappedCall =
        /select\s+[(\s]*(?<call>auth\.(?:uid|jwt|role|email)\(\)|current_setting\()/.ignoresCase()
    nonisolated(unsafe) private static let userMetadataRead =
        /(auth\.jwt\(\)|current_setting\([^)]*request\.jwt\.claim)[\s\S]*user_metadata/.ignoresCase()
    nonisolated(unsafe) private static let call = /auth\.(?:uid|jwt|role|email)\(\)|current_setting\(/.ignoresCase()
}
