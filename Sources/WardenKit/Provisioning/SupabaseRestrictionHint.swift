import WardenPostgres

/// pgwarden's hint for an error that Supabase itself gives the same SQL: the twin is
/// right to refuse it, and the statement has to change, not the server. Given wherever
/// a user's SQL runs (migrations, seeds, pgTAP files), after `TwinGapHint`.
///
/// - `must be member of role "supabase_admin"`: postgres is neither supabase_admin nor a
///   member of it on Supabase, so `ALTER DEFAULT PRIVILEGES FOR ROLE supabase_admin` or
///   `OWNER TO supabase_admin` (lines a schema dump of a Supabase database carries) fail
///   there too (supabase/supabase discussion 52759).
/// - `permission denied for schema auth` (or `storage`): postgres may use those schemas
///   but not create in them since supabase/postgres
///   `migrations/db/migrations/20250421084701_revoke_admin_roles_from_postgres.sql`.
package enum SupabaseRestrictionHint {
    package static func hint(for error: PGError) -> String? {
        guard error.sqlState == .insufficientPrivilege else { return nil }
        if error.message == "must be member of role \"supabase_admin\"" {
            return "on Supabase too, postgres is not supabase_admin nor a member of it: a statement for that role "
                + "(ALTER DEFAULT PRIVILEGES FOR ROLE supabase_admin, OWNER TO supabase_admin, as a schema dump of a "
                + "Supabase database writes them) fails there as well; leave it out"
        }
        for schema in ["auth", "storage"] where error.message == "permission denied for schema \(schema)" {
            return "on Supabase too, postgres may use the \(schema) schema but not create objects in it (revoked in "
                + "2025): put your own tables, functions and triggers' functions in public or a schema of your own"
        }
        return nil
    }
}
