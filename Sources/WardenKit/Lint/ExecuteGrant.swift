import WardenPostgres

/// Where anon's or authenticated's EXECUTE on a function comes from, for a security
/// definer finding: PostgreSQL gives PUBLIC EXECUTE on every new function, so revoking
/// it from anon and authenticated alone leaves them able to call it.
enum ExecuteGrant {
    /// `, through ...: revoke execute on function f from ...`, from the grantees the
    /// catalog names (`LintCatalog.executeGrantees`: `PUBLIC`, the role, roles it is a
    /// member of); empty when there are none. A function the policies of some tables
    /// call (`calledByPoliciesOf`: `public.members, public.notes`) is moved out of the
    /// exposed schemas instead: policies run as the caller, and with its EXECUTE revoked
    /// every read of those tables failed with 42501.
    static func explanation(role: String, grantees: String, signature: String, calledByPoliciesOf tables: String? = nil) -> String {
        let names = grantees.split(separator: ",").map(String.init)
        guard !names.isEmpty else { return "" }
        var ways: [String] = []
        if names.contains(role) { ways.append("granted to \(role) directly") }
        if names.contains("PUBLIC") {
            ways.append("through PUBLIC's EXECUTE privilege (PostgreSQL grants it on every new function by default)")
        }
        let others = names.filter { $0 != role && $0 != "PUBLIC" }
        if !others.isEmpty {
            ways.append("through \(role)'s membership in \(others.joined(separator: ", "))")
        }
        if let tables, !tables.isEmpty {
            return ", " + ways.joined(separator: " and ") + "; the policies of \(tables) call it as the user, so revoking "
                + "execute would make them fail (42501): move it to a schema the Data API does not expose (policies keep "
                + "calling it): create schema if not exists private; alter function \(signature) set schema private"
        }
        let from = names.map { $0 == "PUBLIC" ? "public" : identifier($0) }
        // `public` last reads as the usual fix; the role itself first.
        let ordered = from.filter { $0 != "public" } + (from.contains("public") ? ["public"] : [])
        return ", " + ways.joined(separator: " and ")
            + ": revoke execute on function \(signature) from \(ordered.joined(separator: ", "))"
    }

    /// A role name as SQL: bare when it is a plain lower-case name, else quoted.
    static func identifier(_ name: String) -> String {
        let plain = name.first.map { $0 == "_" || ("a"..."z").contains($0) } == true
            && name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return plain ? name : SQL.quoteIdentifier(name)
    }
}
