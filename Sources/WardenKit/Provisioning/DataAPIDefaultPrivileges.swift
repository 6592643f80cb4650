import WardenPostgres

/// Supabase's "Default privileges for new entities" (docs/supabase-twin.md, "Data API
/// exposure of new tables"). A project's initial schema grants every new table,
/// sequence and function that `postgres` makes in `public` to `anon`, `authenticated`
/// and `service_role` (default privileges), so the Data API reaches it on creation.
/// With the setting off (announced as the hosted default for 2026 by Supabase changelog
/// #45329, which never landed: supabase/cli#6337), those default grants are revoked: a
/// new entity needs an explicit `grant`. The Supabase CLI turns it off
/// locally when config.toml says `[api] auto_expose_new_tables = false` (supabase/cli
/// `internal/db/start/start.go`, `ApplyApiPrivileges`, 2026-06), after the initial schema
/// and before the migrations; `pgwarden dev` does the same.
public enum DataAPIDefaultPrivileges {
    /// Revokes the three default grants, for entities `postgres` makes in `public` from
    /// now on; existing ones keep theirs. Run as `postgres` (its own default privileges).
    public static func revokeForNewEntities(on connection: Connection) throws {
        _ = try connection.execute(unsafeStatements: [
            "alter default privileges for role postgres in schema public "
                + "revoke select, insert, update, delete on tables from anon, authenticated, service_role",
            "alter default privileges for role postgres in schema public "
                + "revoke usage, select on sequences from anon, authenticated, service_role",
            "alter default privileges for role postgres in schema public "
                + "revoke execute on functions from anon, authenticated, service_role",
        ])
    }
}
