import Testing
import WardenKit
import TestSupport

/// One fact about a fresh Supabase project: a query whose one value the twin must
/// give, the value Supabase has, and where that fact comes from
/// (docs/supabase-twin.md: PG = supabase/postgres migrations/db, AUTH = supabase/auth
/// v2.196.0 migrations, ST = supabase/storage v1.70.6 migrations/tenant).
struct TwinFact: Sendable, CustomTestStringConvertible {
    let fact: String
    let sql: String
    let supabase: String
    let source: String
    var testDescription: String { fact }
}

private func attributes(_ role: String) -> String {
    """
    select format('super=%s inherit=%s login=%s bypassrls=%s createrole=%s createdb=%s replication=%s',
                  rolsuper::text, rolinherit::text, rolcanlogin::text, rolbypassrls::text, rolcreaterole::text,
                  rolcreatedb::text, rolreplication::text)
    from pg_roles where rolname = '\(role)'
    """
}

private func memberships(_ role: String) -> String {
    "select string_agg(roleid::regrole::text, ',' order by roleid::regrole::text) from pg_auth_members where member = '\(role)'::regrole"
}

private func setting(_ role: String) -> String {
    "select array_to_string(setconfig, '; ') from pg_db_role_setting where setdatabase = 0 and setrole = '\(role)'::regrole"
}

private func privileges(_ role: String, on table: String) -> String {
    """
    select coalesce(string_agg(p, ',' order by p), 'none') from unnest(array['select', 'insert', 'update', 'delete', 'trigger']) p
    where has_table_privilege('\(role)', '\(table)', p)
    """
}

enum TwinFacts {
    static let all: [TwinFact] = roles + settings + database + auth + storage + platform + realtime

    static let roles: [TwinFact] = [
        TwinFact(fact: "supabase_admin is the only superuser", sql: "select string_agg(rolname, ',') from pg_roles where rolsuper",
                 supabase: "supabase_admin", source: "PG init-scripts/00000000000000-initial-schema.sql; migrations/10000000000000_demote-postgres.sql"),
        TwinFact(fact: "postgres: not a superuser, but createrole, createdb, replication, bypassrls", sql: attributes("postgres"),
                 supabase: "super=false inherit=true login=true bypassrls=true createrole=true createdb=true replication=true",
                 source: "PG migrations/10000000000000_demote-postgres.sql"),
        TwinFact(fact: "anon: nologin, inherit", sql: attributes("anon"),
                 supabase: "super=false inherit=true login=false bypassrls=false createrole=false createdb=false replication=false",
                 source: "PG init-scripts/00000000000000-initial-schema.sql; migrations/20230529180330_alter_api_roles_for_inherit.sql"),
        TwinFact(fact: "authenticated: nologin, inherit", sql: attributes("authenticated"),
                 supabase: "super=false inherit=true login=false bypassrls=false createrole=false createdb=false replication=false",
                 source: "PG init-scripts/00000000000000-initial-schema.sql; migrations/20230529180330_alter_api_roles_for_inherit.sql"),
        TwinFact(fact: "service_role: nologin, inherit, bypassrls", sql: attributes("service_role"),
                 supabase: "super=false inherit=true login=false bypassrls=true createrole=false createdb=false replication=false",
                 source: "PG init-scripts/00000000000000-initial-schema.sql; migrations/20230529180330_alter_api_roles_for_inherit.sql"),
        TwinFact(fact: "authenticator: login, noinherit", sql: attributes("authenticator"),
                 supabase: "super=false inherit=false login=true bypassrls=false createrole=false createdb=false replication=false",
                 source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "supabase_auth_admin: login, noinherit, no createrole", sql: attributes("supabase_auth_admin"),
                 supabase: "super=false inherit=false login=true bypassrls=false createrole=false createdb=false replication=false",
                 source: "PG init-scripts/00000000000001-auth-schema.sql; migrations/20260821154147_revoke_createrole_from_auth_admin.sql"),
        TwinFact(fact: "supabase_storage_admin: login, noinherit, createrole", sql: attributes("supabase_storage_admin"),
                 supabase: "super=false inherit=false login=true bypassrls=false createrole=true createdb=false replication=false",
                 source: "PG init-scripts/00000000000002-storage-schema.sql"),
        TwinFact(fact: "dashboard_user: nologin, createrole, createdb, replication", sql: attributes("dashboard_user"),
                 supabase: "super=false inherit=true login=false bypassrls=false createrole=true createdb=true replication=true",
                 source: "PG init-scripts/00000000000003-post-setup.sql"),
        // pgsodium's roles, and postgres's memberships in them, come with the pgsodium
        // extension, once any database of the cluster creates it (TwinStandInTests).
        TwinFact(fact: "postgres is a member of the API roles, monitoring roles and supabase_functions_admin, not of the auth, storage or realtime admins",
                 sql: memberships("postgres").replacingOccurrences(of: " where ", with: " where roleid::regrole::text not like 'pgsodium%' and "),
                 supabase: "anon,authenticated,pg_monitor,pg_read_all_data,pg_signal_backend,service_role,supabase_functions_admin",
                 source: "PG migrations/20230201083204_grant_auth_roles_to_postgres.sql, 20230306081037, 20240606060239, 20250421084701_revoke_admin_roles_from_postgres.sql, 20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "authenticator may become anon, authenticated, service_role (and postgres)", sql: memberships("authenticator"),
                 supabase: "anon,authenticated,postgres,service_role",
                 source: "PG init-scripts/00000000000000-initial-schema.sql, migrations/20221103090837_revoke_admin.sql; ST 0002-storage-schema.sql"),
        TwinFact(fact: "supabase_storage_admin is a member of authenticator", sql: memberships("supabase_storage_admin"),
                 supabase: "authenticator", source: "PG migrations/20231013070755_grant_authenticator_to_supabase_storage_admin.sql"),
    ]

    static let settings: [TwinFact] = [
        TwinFact(fact: "anon statement_timeout", sql: setting("anon"), supabase: "statement_timeout=3s",
                 source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "authenticated statement_timeout", sql: setting("authenticated"), supabase: "statement_timeout=8s",
                 source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "authenticator timeouts", sql: setting("authenticator"), supabase: "statement_timeout=8s; lock_timeout=8s",
                 source: "PG migrations/20221028101028_set_authenticator_timeout.sql, 20231130133139_set_lock_timeout_to_authenticator_role.sql"),
        TwinFact(fact: "postgres search_path", sql: setting("postgres"), supabase: #"search_path="\$user", public, extensions"#,
                 source: "PG init-scripts/00000000000003-post-setup.sql"),
        TwinFact(fact: "supabase_auth_admin search_path and idle timeout", sql: setting("supabase_auth_admin"),
                 supabase: "search_path=auth; idle_in_transaction_session_timeout=60000",
                 source: "PG init-scripts/00000000000001-auth-schema.sql; AUTH migrations"),
        TwinFact(fact: "supabase_storage_admin search_path", sql: setting("supabase_storage_admin"), supabase: "search_path=storage",
                 source: "PG init-scripts/00000000000002-storage-schema.sql"),
    ]

    static let database: [TwinFact] = [
        TwinFact(fact: "postgres owns the database", sql: "select datdba::regrole::text from pg_database where datname = current_database()",
                 supabase: "postgres", source: "PG migrate.sh (alter database postgres owner to postgres)"),
        TwinFact(fact: "schema owners", sql: """
                 select string_agg(nspname || '=' || nspowner::regrole, ',' order by nspname) from pg_namespace
                 where nspname in ('public', 'auth', 'storage', 'extensions', 'graphql_public')
                 """,
                 supabase: "auth=supabase_admin,extensions=postgres,graphql_public=supabase_admin,public=pg_database_owner,storage=supabase_admin",
                 source: "PG init-scripts 00000000000000, 00000000000001, 00000000000002; migrations/20220317095840_pg_graphql.sql"),
        TwinFact(fact: "postgres may create in public and extensions, not in auth or storage", sql: """
                 select string_agg(s || '=' || has_schema_privilege('postgres', s, 'create'), ',' order by s)
                 from unnest(array['auth', 'extensions', 'public', 'storage']) s
                 """,
                 supabase: "auth=false,extensions=true,public=true,storage=false",
                 source: "PG migrations/20250421084701_revoke_admin_roles_from_postgres.sql"),
        TwinFact(fact: "the API roles may use public, extensions, auth, storage, graphql_public", sql: """
                 select bool_and(has_schema_privilege(r, s, 'usage'))::text
                 from unnest(array['anon', 'authenticated', 'service_role']) r,
                      unnest(array['public', 'extensions', 'auth', 'storage', 'graphql_public']) s
                 """, supabase: "true", source: "PG init-scripts 00000000000000, 00000000000001, 00000000000002; migrations/20220317095840_pg_graphql.sql"),
        TwinFact(fact: "what postgres creates in public is granted to the API roles", sql: """
                 select string_agg(format('%s:%s', a.grantee::regrole, a.privilege_type), ',' order by a.grantee::regrole::text)
                 from pg_default_acl d, aclexplode(d.defaclacl) a
                 where d.defaclrole = 'postgres'::regrole and d.defaclnamespace = 'public'::regnamespace and d.defaclobjtype = 'f'
                 """, supabase: "anon:EXECUTE,authenticated:EXECUTE,postgres:EXECUTE,service_role:EXECUTE",
                 source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "what the auth server creates is granted to postgres and dashboard_user", sql: """
                 select string_agg(distinct a.grantee::regrole::text, ',')
                 from pg_default_acl d, aclexplode(d.defaclacl) a
                 where d.defaclrole = 'supabase_auth_admin'::regrole and d.defaclnamespace = 'auth'::regnamespace
                 """, supabase: "dashboard_user,postgres", source: "PG migrations/20211115181400_update-auth-permissions.sql"),
        TwinFact(fact: "uuid-ossp and pgcrypto live in extensions, owned by postgres", sql: """
                 select string_agg(format('%s@%s by %s', extname, extnamespace::regnamespace, extowner::regrole), ',' order by extname)
                 from pg_extension where extname in ('uuid-ossp', 'pgcrypto')
                 """, supabase: "pgcrypto@extensions by postgres,uuid-ossp@extensions by postgres",
                 source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "the supabase_realtime publication: empty, owned by postgres", sql: """
                 select format('%s all=%s tables=%s', pubowner::regrole, puballtables::text,
                               (select count(*) from pg_publication_rel r where r.prpubid = p.oid))
                 from pg_publication p where pubname = 'supabase_realtime'
                 """, supabase: "postgres all=false tables=0", source: "PG init-scripts/00000000000000-initial-schema.sql"),
        TwinFact(fact: "graphql_public.graphql() exists and answers without pg_graphql",
                 sql: "select graphql_public.graphql() -> 'errors' -> 0 ->> 'message'",
                 supabase: "pg_graphql extension is not enabled.", source: "PG migrations/20220404205710_pg_graphql-on-by-default.sql"),
    ]

    static let auth: [TwinFact] = [
        TwinFact(fact: "auth tables: owned by supabase_auth_admin, row-level security on, no policy", sql: """
                 select format('%s tables, owners=%s, rls=%s, policies=%s', count(*), string_agg(distinct relowner::regrole::text, ','),
                               bool_and(relrowsecurity)::text, (select count(*) from pg_policies where schemaname = 'auth'))
                 from pg_class where relnamespace = 'auth'::regnamespace and relkind = 'r'
                 """, supabase: "16 tables, owners=supabase_auth_admin, rls=true, policies=0",
                 source: "AUTH 20240612123726_enable_rls_update_grants.up.sql; PG init-scripts/00000000000001-auth-schema.sql"),
        TwinFact(fact: "no API role has any privilege on auth.users", sql: """
                 select bool_or(has_table_privilege(r, 'auth.users', 'select, insert, update, delete'))::text
                 from unnest(array['anon', 'authenticated', 'service_role']) r
                 """, supabase: "false", source: "AUTH 20240612123726_enable_rls_update_grants.up.sql (grants to postgres only)"),
        TwinFact(fact: "postgres may read, write and add triggers to auth.users", sql: privileges("postgres", on: "auth.users"),
                 supabase: "delete,insert,select,trigger,update", source: "PG migrations/20211115181400_update-auth-permissions.sql"),
        TwinFact(fact: "postgres and dashboard_user may use, read and set auth's sequences (a dumped seed's setval of auth.refresh_tokens_id_seq)",
                 sql: """
                 select string_agg(format('auth.%s %s=%s', c.relname, r, (has_sequence_privilege(r, c.oid, 'usage')
                                          and has_sequence_privilege(r, c.oid, 'select') and has_sequence_privilege(r, c.oid, 'update'))::text),
                                   ',' order by c.relname, r)
                 from pg_class c, unnest(array['dashboard_user', 'postgres', 'anon']) r
                 where c.relnamespace = 'auth'::regnamespace and c.relkind = 'S'
                 """,
                 supabase: "auth.refresh_tokens_id_seq anon=false,auth.refresh_tokens_id_seq dashboard_user=true,auth.refresh_tokens_id_seq postgres=true",
                 source: "PG init-scripts/00000000000001-auth-schema.sql (refresh_tokens.id bigserial); migrations/20211115181400_update-auth-permissions.sql (grant all on all sequences in schema auth to postgres, dashboard_user)"),
        TwinFact(fact: "postgres may only read auth.schema_migrations", sql: privileges("postgres", on: "auth.schema_migrations"),
                 supabase: "select", source: "PG migrations/20250421084701_revoke_admin_roles_from_postgres.sql"),
        TwinFact(fact: "auth.users.id has no default; token columns are null by default", sql: """
                 select string_agg(format('%s=%s', a.attname, coalesce(pg_get_expr(d.adbin, d.adrelid), 'none')), ',' order by a.attname)
                 from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                 where a.attrelid = 'auth.users'::regclass
                   and a.attname in ('id', 'confirmation_token', 'recovery_token', 'email_change_token_new', 'created_at', 'is_anonymous')
                 """, supabase: "confirmation_token=none,created_at=none,email_change_token_new=none,id=none,is_anonymous=false,recovery_token=none",
                 source: "PG init-scripts/00000000000001-auth-schema.sql; AUTH migrations to v2.196.0"),
        TwinFact(fact: "auth.identities: generated lower-case email, id defaults to gen_random_uuid()", sql: """
                 select format('%s | %s', pg_get_expr(d.adbin, d.adrelid), (select attgenerated from pg_attribute
                   where attrelid = 'auth.identities'::regclass and attname = 'email'))
                 from pg_attrdef d where d.adrelid = 'auth.identities'::regclass
                   and d.adnum = (select attnum from pg_attribute where attrelid = 'auth.identities'::regclass and attname = 'id')
                 """, supabase: "gen_random_uuid() | s", source: "AUTH 20231117164230_add_id_pkey_identities.up.sql"),
        TwinFact(fact: "auth.uid() and friends: owned by supabase_auth_admin, callable by everyone", sql: """
                 select string_agg(format('auth.%s() by %s %s', p.proname, proowner::regrole, has_function_privilege('anon', p.oid, 'execute')::text),
                                   ',' order by p.proname)
                 from pg_proc p where pronamespace = 'auth'::regnamespace and proname in ('uid', 'role', 'email', 'jwt')
                 """, supabase: "auth.email() by supabase_auth_admin true,auth.jwt() by supabase_auth_admin true,auth.role() by supabase_auth_admin true,auth.uid() by supabase_auth_admin true",
                 source: "PG migrations/20211124212715_update-auth-owner.sql; AUTH 20220224000811_update_auth_functions.up.sql"),
    ]

    /// A new project's other schemas and extensions (issue 17).
    static let platform: [TwinFact] = [
        TwinFact(fact: "supabase_functions_admin: login, noinherit, createrole", sql: attributes("supabase_functions_admin"),
                 supabase: "super=false inherit=false login=true bypassrls=false createrole=true createdb=false replication=false",
                 source: "PG migrations/20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "supabase_functions_admin's search_path", sql: setting("supabase_functions_admin"),
                 supabase: "search_path=supabase_functions", source: "PG migrations/20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "supabase_functions.hooks, migrations and http_request() are owned by supabase_functions_admin", sql: """
                 select string_agg(o, ',' order by o) from (
                   select oid::regclass::text || ' by ' || relowner::regrole from pg_class
                   where oid in ('supabase_functions.hooks'::regclass, 'supabase_functions.migrations'::regclass)
                   union all select 'http_request() by ' || proowner::regrole || ' definer=' || prosecdef
                   from pg_proc where oid = 'supabase_functions.http_request()'::regprocedure) t(o)
                 """, supabase: "http_request() by supabase_functions_admin definer=true,supabase_functions.hooks by supabase_functions_admin,supabase_functions.migrations by supabase_functions_admin",
                 source: "PG migrations/20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "anon may execute supabase_functions.http_request()",
                 sql: "select has_function_privilege('anon', 'supabase_functions.http_request()', 'execute')::text",
                 supabase: "true", source: "PG migrations/20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "pg_stat_statements and pg_net live in extensions", sql: """
                 select string_agg(extname || ':' || extnamespace::regnamespace, ',' order by extname) from pg_extension
                 where extname in ('pg_stat_statements', 'pg_net')
                 """, supabase: "pg_net:extensions,pg_stat_statements:extensions",
                 source: "PG init-scripts/00000000000000-initial-schema.sql; migrations/20240822021428_enable_webhooks_by_default.sql"),
        TwinFact(fact: "vault.secrets: postgres has select and delete with grant option, service_role without", sql: """
                 select string_agg(a.grantee::regrole || ':' || privilege_type || ':' || is_grantable, ',' order by a.grantee::regrole::text, privilege_type)
                 from pg_class, aclexplode(relacl) a where oid = 'vault.secrets'::regclass and a.grantee <> relowner
                 """, supabase: "postgres:DELETE:true,postgres:SELECT:true,service_role:DELETE:false,service_role:SELECT:false",
                 source: "PG ansible/files/postgresql_extension_custom_scripts/supabase_vault/after-create.sql"),
        TwinFact(fact: "anon and authenticated cannot read vault.decrypted_secrets", sql: """
                 select (has_table_privilege('anon', 'vault.decrypted_secrets', 'select')
                         or has_table_privilege('authenticated', 'vault.decrypted_secrets', 'select'))::text
                 """, supabase: "false", source: "PG ansible/files/postgresql_extension_custom_scripts/supabase_vault/after-create.sql"),
        TwinFact(fact: "postgres may set pgrst.db_pre_request (in role settings)",
                 sql: "select has_parameter_privilege('postgres', 'pgrst.db_pre_request', 'set')::text",
                 supabase: "true", source: "Supabase docs: alter role authenticator set pgrst.db_pre_request; PostgREST v12 in-database configuration"),
    ]

    static let storage: [TwinFact] = [
        TwinFact(fact: "storage.buckets and storage.objects: owned by supabase_storage_admin, row-level security on", sql: """
                 select string_agg(format('%s by %s rls=%s', oid::regclass, relowner::regrole, relrowsecurity::text), ',' order by relname)
                 from pg_class where oid in ('storage.buckets'::regclass, 'storage.objects'::regclass)
                 """, supabase: "storage.buckets by supabase_storage_admin rls=true,storage.objects by supabase_storage_admin rls=true",
                 source: "ST 0001-initialmigration.sql, 0007-add-rls-to-buckets.sql; PG init-scripts/00000000000002-storage-schema.sql"),
        TwinFact(fact: "the API roles hold every privilege on storage.objects (policies decide)", sql: privileges("anon", on: "storage.objects"),
                 supabase: "delete,insert,select,trigger,update", source: "PG init-scripts/00000000000002-storage-schema.sql; ST 0046-buckets-objects-grants.sql"),
        TwinFact(fact: "no API role may touch storage.migrations", sql: """
                 select bool_or(has_table_privilege(r, 'storage.migrations', 'select, insert, update, delete'))::text
                 from unnest(array['anon', 'authenticated', 'service_role']) r
                 """, supabase: "false", source: "PG migrations/20250421084701_revoke_admin_roles_from_postgres.sql"),
        TwinFact(fact: "postgres reads every table, the storage server's history too (pg_read_all_data), but writes none of it",
                 sql: privileges("postgres", on: "storage.migrations"), supabase: "select",
                 source: "PG migrations/20240606060239_grant_predefined_roles_to_postgres.sql, 20250421084701_revoke_admin_roles_from_postgres.sql"),
        TwinFact(fact: "storage.foldername, filename, extension split a path",
                 sql: "select format('%s %s %s', storage.foldername('a/b/c.tar.gz'), storage.filename('a/b/c.tar.gz'), storage.extension('a/b/c.tar.gz'))",
                 supabase: "{a,b} c.tar.gz gz", source: "ST 0060-optimize-existing-functions-again.sql, 0061-mark-filename-immutable.sql"),
        TwinFact(fact: "storage.objects.path_tokens is generated from the name", sql: """
                 select pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
                 where d.adrelid = 'storage.objects'::regclass and a.attname = 'path_tokens'
                 """, supabase: "string_to_array(name, '/'::text)", source: "ST 0003-pathtoken-column.sql"),
        TwinFact(fact: "S3 multipart upload tables: owned by supabase_storage_admin, row-level security on", sql: """
                 select string_agg(format('%s by %s rls=%s', oid::regclass, relowner::regrole, relrowsecurity::text), ',' order by relname)
                 from pg_class where oid in ('storage.s3_multipart_uploads'::regclass, 'storage.s3_multipart_uploads_parts'::regclass)
                 """, supabase: "storage.s3_multipart_uploads by supabase_storage_admin rls=true,storage.s3_multipart_uploads_parts by supabase_storage_admin rls=true",
                 source: "ST 0021-s3-multipart-uploads.sql"),
        TwinFact(fact: "storage.s3_multipart_uploads' columns", sql: """
                 select string_agg(format('%s %s%s', attname, format_type(atttypid, atttypmod), case when attnotnull then ' not null' else '' end),
                                   ', ' order by attnum)
                 from pg_attribute where attrelid = 'storage.s3_multipart_uploads'::regclass and attnum > 0 and not attisdropped
                 """, supabase: "id text not null, in_progress_size bigint not null, upload_signature text not null, bucket_id text not null, "
                    + "key text not null, version text not null, owner_id text, created_at timestamp with time zone not null, "
                    + "user_metadata jsonb, metadata jsonb",
                 source: "ST 0021-s3-multipart-uploads.sql, 0022-s3-multipart-uploads-big-ints.sql, 0025-custom-metadata.sql, 0057-s3-multipart-uploads-metadata.sql"),
        TwinFact(fact: "storage.s3_multipart_uploads_parts' columns", sql: """
                 select string_agg(format('%s %s%s', attname, format_type(atttypid, atttypmod), case when attnotnull then ' not null' else '' end),
                                   ', ' order by attnum)
                 from pg_attribute where attrelid = 'storage.s3_multipart_uploads_parts'::regclass and attnum > 0 and not attisdropped
                 """, supabase: "id uuid not null, upload_id text not null, size bigint not null, part_number integer not null, "
                    + "bucket_id text not null, key text not null, etag text not null, owner_id text, version text not null, "
                    + "created_at timestamp with time zone not null",
                 source: "ST 0021-s3-multipart-uploads.sql, 0022-s3-multipart-uploads-big-ints.sql"),
        TwinFact(fact: "a part belongs to its upload (deleted with it)", sql: """
                 select format('%s %s', confrelid::regclass, confdeltype) from pg_constraint
                 where conrelid = 'storage.s3_multipart_uploads_parts'::regclass and contype = 'f'
                   and confrelid = 'storage.s3_multipart_uploads'::regclass
                 """, supabase: "storage.s3_multipart_uploads c", source: "ST 0021-s3-multipart-uploads.sql"),
        TwinFact(fact: "anon and authenticated may only read the S3 upload tables", sql: """
                 select string_agg(format('%s %s %s', r, t, (select string_agg(p, ',' order by p)
                                          from unnest(array['select', 'insert', 'update', 'delete', 'trigger']) p
                                          where has_table_privilege(r, t, p))), ',' order by r, t)
                 from unnest(array['anon', 'authenticated']) r,
                      unnest(array['storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts']) t
                 """, supabase: "anon storage.s3_multipart_uploads select,anon storage.s3_multipart_uploads_parts select,"
                    + "authenticated storage.s3_multipart_uploads select,authenticated storage.s3_multipart_uploads_parts select",
                 source: "ST 0021-s3-multipart-uploads.sql"),
        TwinFact(fact: "service_role and postgres hold every privilege on the S3 upload tables",
                 sql: "select (\(privileges("service_role", on: "storage.s3_multipart_uploads"))) || ' / ' || (\(privileges("postgres", on: "storage.s3_multipart_uploads_parts")))",
                 supabase: "delete,insert,select,trigger,update / delete,insert,select,trigger,update",
                 source: "ST 0021-s3-multipart-uploads.sql; ST 0002-storage-schema.sql (default privileges to postgres)"),
        TwinFact(fact: "direct deletes from buckets and objects go through protect_delete()", sql: """
                 select string_agg(format('%s %s', tgrelid::regclass, tgname), ',' order by tgname) from pg_trigger
                 where tgfoid = 'storage.protect_delete()'::regprocedure
                 """, supabase: "storage.buckets protect_buckets_delete,storage.objects protect_objects_delete",
                 source: "ST 0055-prevent-direct-deletes.sql"),
    ]
}

extension TwinFacts {
    /// Realtime's part (RT = supabase/realtime lib/realtime/tenants/repo/migrations at
    /// commit 833cf36; their result checked against hosted projects' dumps).
    static let realtime: [TwinFact] = [
        TwinFact(fact: "supabase_realtime_admin: nologin, noinherit", sql: attributes("supabase_realtime_admin"),
                 supabase: "super=false inherit=false login=false bypassrls=false createrole=false createdb=false replication=false",
                 source: "RT 20240401105812_create_realtime_admin_and_move_ownership.ex, 20260707120000_restrict_realtime_schema.ex"),
        TwinFact(fact: "schema realtime: owned by supabase_admin; postgres may use it (and grant that), not create in it", sql: """
                 select (select nspowner::regrole::text from pg_namespace where nspname = 'realtime') || ' ' || string_agg(
                   format('%s:%s%s%s', r, case when has_schema_privilege(r, 'realtime', 'usage') then 'U' else '' end,
                          case when has_schema_privilege(r, 'realtime', 'usage with grant option') then '*' else '' end,
                          case when has_schema_privilege(r, 'realtime', 'create') then 'C' else '' end), ',' order by r)
                 from unnest(array['anon', 'authenticated', 'postgres', 'service_role', 'supabase_realtime_admin']) r
                 """,
                 supabase: "supabase_admin anon:U,authenticated:U,postgres:U*,service_role:U,supabase_realtime_admin:UC",
                 source: "PG migrations/20211118015519, 20260506172403_grant_realtime_schema_to_postgres_with_grant_option.sql; RT 20231204144023_set_required_grants.ex, 20260707120000"),
        TwinFact(fact: "realtime.messages and realtime.subscription: owned by supabase_realtime_admin; messages partitioned with row-level security on",
                 sql: """
                 select string_agg(format('%s %s %s rls=%s', oid::regclass, relowner::regrole, relkind, relrowsecurity::text), ',' order by oid::regclass::text)
                 from pg_class where oid in ('realtime.messages'::regclass, 'realtime.subscription'::regclass)
                 """,
                 supabase: "realtime.messages supabase_realtime_admin p rls=true,realtime.subscription supabase_realtime_admin r rls=false",
                 source: "RT 20241030150047_messages_partitioning.ex, 20260707120000_restrict_realtime_schema.ex"),
        TwinFact(fact: "realtime.messages' columns", sql: """
                 select string_agg(format('%s %s%s%s', attname, format_type(atttypid, atttypmod), case when attnotnull then ' not null' else '' end,
                                          coalesce(' = ' || pg_get_expr(d.adbin, d.adrelid), '')), ', ' order by attnum)
                 from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                 where attrelid = 'realtime.messages'::regclass and attnum > 0 and not attisdropped
                 """,
                 supabase: "topic text not null, extension text not null, payload jsonb, event text, private boolean = false, "
                    + "updated_at timestamp without time zone not null = now(), inserted_at timestamp without time zone not null = now(), "
                    + "id uuid not null = gen_random_uuid(), binary_payload bytea",
                 source: "RT 20240523004032, 20240919163303, 20241030150047, 20241108114728_messages_using_uuid.ex, 20260514120000_add_binary_payload_to_messages.ex"),
        TwinFact(fact: "realtime.messages: partitioned by range of inserted_at, primary key (id, inserted_at)", sql: """
                 select pg_get_partkeydef('realtime.messages'::regclass) || '; ' ||
                        (select pg_get_constraintdef(oid) from pg_constraint where conrelid = 'realtime.messages'::regclass and contype = 'p')
                 """, supabase: "RANGE (inserted_at); PRIMARY KEY (id, inserted_at)",
                 source: "RT 20241030150047_messages_partitioning.ex, 20241108114728_messages_using_uuid.ex"),
        TwinFact(fact: "authenticated may read, insert and update realtime.messages (policies decide)",
                 sql: privileges("authenticated", on: "realtime.messages"), supabase: "insert,select,update",
                 source: "RT 20241030150047_messages_partitioning.ex; a hosted project's dump (GRANT SELECT,INSERT,UPDATE ... TO anon, authenticated, service_role)"),
        TwinFact(fact: "anon and service_role hold the same on realtime.messages", sql: """
                 select (\(privileges("anon", on: "realtime.messages"))) || ' ' || (\(privileges("service_role", on: "realtime.messages")))
                 """, supabase: "insert,select,update insert,select,update", source: "RT 20241030150047_messages_partitioning.ex"),
        TwinFact(fact: "postgres holds every privilege on realtime.messages and realtime.subscription", sql: """
                 select (\(privileges("postgres", on: "realtime.messages"))) || ' ' || (\(privileges("postgres", on: "realtime.subscription")))
                 """, supabase: "delete,insert,select,trigger,update delete,insert,select,trigger,update",
                 source: "PG migrations/20211130151719_update-realtime-permissions.sql (supabase_admin's default privileges in realtime)"),
        TwinFact(fact: "the API roles may only read realtime.subscription", sql: privileges("authenticated", on: "realtime.subscription"),
                 supabase: "select", source: "RT 20231204144023_set_required_grants.ex; a hosted project's dump"),
        TwinFact(fact: "realtime's functions: signatures, owner, volatility, not security definer", sql: """
                 select string_agg(format('%s(%s) %s %s definer=%s', p.proname, pg_get_function_arguments(p.oid), p.proowner::regrole,
                                          p.provolatile, p.prosecdef::text), '; ' order by p.proname)
                 from pg_proc p where p.pronamespace = 'realtime'::regnamespace
                   and p.proname in ('topic', 'send', 'send_binary', 'broadcast_changes', 'to_regrole')
                 """,
                 supabase: "broadcast_changes(topic_name text, event_name text, operation text, table_name text, table_schema text, "
                    + "new record, old record, level text DEFAULT 'ROW'::text) supabase_realtime_admin v definer=false; "
                    + "send(payload jsonb, event text, topic text, private boolean DEFAULT true) supabase_realtime_admin v definer=false; "
                    + "send_binary(payload bytea, event text, topic text, private boolean DEFAULT true) supabase_realtime_admin v definer=false; "
                    + "to_regrole(role_name text) supabase_realtime_admin i definer=false; "
                    + "topic() supabase_realtime_admin s definer=false",
                 source: "RT 20240919163303, 20240523004032, 20211210212804, 20260605120000_rename_broadcast_send_warning.ex, 20260707120000_restrict_realtime_schema.ex"),
        TwinFact(fact: "anon and authenticated may call realtime.send() and realtime.topic()", sql: """
                 select bool_and(has_function_privilege(r, f, 'execute'))::text
                 from unnest(array['anon', 'authenticated']) r, unnest(array['realtime.send(jsonb, text, text, boolean)', 'realtime.topic()']) f
                 """, supabase: "true", source: "PostgreSQL's default EXECUTE for PUBLIC; RT 20231204144023_set_required_grants.ex"),
        TwinFact(fact: "realtime.topic() reads the realtime.topic setting the Realtime server sets", sql: """
                 select realtime.topic() from (select set_config('realtime.topic', 'room:1', false)) s
                 """, supabase: "room:1", source: "RT 20240523004032_redefine_authorization_tables.ex; lib/realtime/tenants/authorization.ex (set_conn_config)"),
        TwinFact(fact: "realtime.subscription's columns", sql: """
                 select string_agg(format('%s %s%s', attname, format_type(atttypid, atttypmod), case when attnotnull then ' not null' else '' end),
                                   ', ' order by attnum)
                 from pg_attribute where attrelid = 'realtime.subscription'::regclass and attnum > 0 and not attisdropped
                 """,
                 supabase: "id bigint not null, subscription_id uuid not null, entity regclass not null, filters realtime.user_defined_filter[] not null, "
                    + "claims jsonb not null, claims_role regrole not null, created_at timestamp without time zone not null, action_filter text, "
                    + "selected_columns text[]",
                 source: "RT 20211116024918, 20211210212804, 20251120212548_add_action_to_subscriptions.ex, 20260527120000_add_select_columns_to_subscriptions.ex"),
        TwinFact(fact: "the database's collation and character classes are C.UTF-8", sql: """
                 select datcollate || ' ' || datctype from pg_database where datname = current_database()
                 """, supabase: "C.UTF-8 C.UTF-8",
                 source: "supabase/postgres#696 (hosted `show lc_collate` is C.UTF-8); supabase/cli#1308"),
        TwinFact(fact: "upper(), lower() and ilike know letters beyond ASCII", sql: """
                 select upper('é') || lower('СМАРТФОН') || ('Ärger' ilike 'ärger')::text || ('古' ~ '[[:alpha:]]')::text
                 """, supabase: "Éсмартфонtruetrue", source: "C.UTF-8's character classes (glibc), as on Supabase (supabase/postgres#696)"),
    ]
}

/// Every fact of the table above, against a twin bootstrapped once for the suite.
@Suite struct TwinFactsTests {
    static let twin: Result<ConnectionSettings, Error> = Result { try TestCluster.newTwinDatabase("facts").admin }

    @Test(arguments: TwinFacts.all)
    func theTwinHasWhatSupabaseHas(_ fact: TwinFact) throws {
        let connection = try Connection(Self.twin.get())
        let value = try connection.query(unsafeSQL: fact.sql).scalar
        #expect(value == fact.supabase, "\(fact.fact): Supabase has \(fact.supabase) (\(fact.source))")
    }
}
