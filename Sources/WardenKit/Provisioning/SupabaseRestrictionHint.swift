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
/// - `must be owner of table <t>` for a table of `auth` or `storage` (their owners are
///   supabase_auth_admin and supabase_storage_admin; supabase/auth's and supabase/storage's
///   migrations create them as those roles).
/// - `permission denied to set role "r"`: postgres is CREATEROLE but no superuser, and
///   creating a role does not make the creator a member on PostgreSQL 15 (16 and later grant
///   ADMIN OPTION without SET: `createrole_self_grant` is empty by default), so `SET ROLE`
///   needs a `GRANT r TO postgres` first, there as here.
/// - `permission denied for table secrets` (or `decrypted_secrets`): postgres may only
///   select and delete Vault's secrets (supabase/postgres
///   `ansible/files/postgresql_extension_custom_scripts/supabase_vault/after-create.sql`),
///   so a foreign key to `vault.secrets` (REFERENCES) or an insert into it fails there too.
package enum SupabaseRestrictionHint {
    /// The tables of `auth` and `storage` a new project has (the twin's, docs/supabase-twin.md).
    static let platformTables: [String: String] = Dictionary(uniqueKeysWithValues:
        ["users", "identities", "sessions", "refresh_tokens", "audit_log_entries", "instances", "mfa_factors",
         "mfa_challenges", "mfa_amr_claims", "sso_providers", "sso_domains", "saml_providers", "saml_relay_states",
         "flow_state", "one_time_tokens", "schema_migrations"].map { ($0, "auth") }
        + ["buckets", "objects", "s3_multipart_uploads", "s3_multipart_uploads_parts", "buckets_analytics", "prefixes"].map { ($0, "storage") })

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
        if error.message.hasPrefix("must be owner of table "),
           let table = error.message.split(separator: " ").last, let schema = Self.platformTables[String(table)] {
            return "if this is \(schema).\(table): on Supabase too, \(schema)'s tables belong to "
                + "\(schema == "auth" ? "supabase_auth_admin" : "supabase_storage_admin"), not postgres, so altering them "
                + "fails there as well; keep your own columns in a table of your own that references it"
        }
        if error.message.hasPrefix("permission denied to set role \""), let role = error.message.split(separator: "\"").dropFirst().first {
            return "on Supabase too, postgres is no superuser: it may set only a role it is a member of, and creating a "
                + "role does not make it one (PostgreSQL 15; 16 and later grant it ADMIN but not SET); grant \(role) to "
                + "postgres before setting it"
        }
        if ["permission denied for table secrets", "permission denied for view decrypted_secrets"].contains(error.message) {
            return "if this is Vault's (vault.secrets): on Supabase too, postgres may only select and delete secrets, so a "
                + "foreign key to vault.secrets, an insert or an update fails there as well; write secrets with "
                + "vault.create_secret() and vault.update_secret(), and keep a secret's id without a foreign key"
        }
        return nil
    }
}
