import WardenPostgres

/// A non-superuser refused an extension that Supabase lets `postgres` create
/// (supautils' privileged list, `PrivilegedExtensions`): on a server other than
/// pgwarden's own ephemeral one, nothing lifts PostgreSQL's superuser rule.
package struct RefusedPrivilegedExtension: Equatable, Sendable {
    /// The extension's name.
    package var name: String

    /// Recognises PostgreSQL's `permission denied to create extension "x"` (42501) for
    /// an extension on supautils' privileged list.
    package init?(_ error: PGError) {
        let prefix = "permission denied to create extension \""
        guard error.sqlState == .insufficientPrivilege, error.message.hasPrefix(prefix), error.message.hasSuffix("\"")
        else { return nil }
        let name = String(error.message.dropFirst(prefix.count).dropLast())
        guard PrivilegedExtensions.names.contains(name) else { return nil }
        self.name = name
    }

    /// What to do.
    package var hint: String {
        "on Supabase, postgres may create \(name) (supautils' privileged extensions); this server has no such rule: "
            + "create it as a superuser first, or run on pgwarden's own ephemeral server (pgwarden dev), which allows it"
    }
}
