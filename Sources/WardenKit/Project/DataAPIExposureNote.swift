import Foundation

/// Why a Supabase CLI project's pgTAP suites may fail on grants alone: config.toml leaves
/// `[api] auto_expose_new_tables` unset, and what unset means changed twice. The Supabase
/// CLI keeps the default grants that expose new tables, sequences and functions in
/// `public` to anon, authenticated and service_role (as pgwarden does); from v2.106.0
/// (2026-06-11, supabase/cli#5524) unset revoked them, until supabase/cli#6337
/// (2026-08-26) made unset keep them again. Suites written in between assert privileges
/// are absent, and fail here (docs/supabase-twin.md).
public enum DataAPIExposureNote {
    /// The note for `layout` after `suites` ran: nil unless it is a Supabase CLI project
    /// whose config.toml leaves the key unset and a failed assertion speaks of privileges
    /// (`table_privs_are`'s "should be granted no privileges", its "Extra privileges"
    /// diagnostics): a file that failed on its own (`set role` refused) is no such case.
    public static func after(_ suites: [TestSuiteResult], in layout: ProjectLayout) -> String? {
        guard layout.kind == .supabase, layout.supabaseConfig?.autoExposeNewTables == nil,
              suites.contains(where: { $0.failures.contains(where: speaksOfPrivileges) }) else { return nil }
        let config = ProjectLayout.join(layout.root.relativePath, "supabase/config.toml")
        return "note: pgTAP failed, and \(config) leaves [api] auto_expose_new_tables unset: new tables, sequences and "
            + "functions in public are granted to anon, authenticated and service_role, as the Supabase CLI does "
            + "(Supabase CLI v2.106.0 to supabase/cli#6337, June to August 2026, revoked them when unset); "
            + "if a failing assertion expects no such privilege, set auto_expose_new_tables = false"
    }

    /// The note for a migration of `project` that failed where its statement tests
    /// privileges itself (`set local role authenticated`, an `insufficient_privilege`
    /// handler, `has_column_privilege(...)`): nil unless the project's config.toml leaves
    /// the key unset. A hosted project with the key off passes such a proof of its own
    /// column grants; here, as with the Supabase CLI, the default grants fail it (a
    /// marketplace's migration, round thirty-eight: the note came only after pgTAP).
    public static func afterMigration(_ failure: MigrationSQLFailure, of project: Project) -> String? {
        guard let config = project.configLeavingExposureUnset, failure.postgresError?.sqlState != .insufficientPrivilege,
              let statement = failure.failingStatementText?.lowercased(),
              statement.range(of: #"set\s+(local\s+)?role|insufficient_privilege|has_(any_column|column|table|function|schema)_privilege|42501"#,
                              options: .regularExpression) != nil else { return nil }
        return "note: the migration tests privileges itself, and \(config) leaves [api] auto_expose_new_tables unset: "
            + "new tables, sequences and functions in public are granted to anon, authenticated and service_role, "
            + "as the Supabase CLI does; a project made with the key off (hosted projects since 2026-05-30) relies "
            + "on their absence: there, set auto_expose_new_tables = false"
    }

    /// An assertion (not a file's own failure) whose description or diagnostics name a
    /// privilege or a grant, or that wanted 42501 (`throws_ok(..., '42501')`: an execute
    /// the grants now allow raised the function's own error instead) or says a role
    /// "cannot execute" (`ok(not has_function_privilege(...))`, described so).
    static func speaksOfPrivileges(_ failure: TestCaseResult) -> Bool {
        guard failure.number != nil else { return false }
        let text = ([failure.description] + failure.diagnostics).joined(separator: "\n").lowercased()
        return ["privilege", "privs", "grant", "cannot execute", "permission denied"].contains { text.contains($0) }
            || failure.diagnostics.contains { $0.lowercased().contains("wanted: 42501") }
    }
}
