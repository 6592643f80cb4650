import TestSupport
import WardenKit

/// Everything the twin defines, as sorted catalog rows without oids: roles and their
/// attributes, memberships, role settings, this database's owner and privileges,
/// schemas, default privileges, tables (owner, row-level security, privileges, columns
/// with defaults), functions (owner, body, privileges), triggers, policies, types,
/// extensions, publications and event triggers. Privileges are exploded and sorted,
/// so the order PostgreSQL happens to store them in does not matter.
///
/// Roles, memberships and role settings belong to the whole cluster, and other tests
/// on the shared test server create and drop their own roles at the same time; so
/// only the twin's roles, memberships among them, and settings of them for every
/// database or this one count.
enum TwinCatalog {
    static let schemas = "'public', 'auth', 'storage', 'extensions', 'graphql_public', 'realtime', 'graphql', 'vault', 'supabase_functions', 'net'"

    /// Read with an empty search_path, so every name is schema-qualified whatever the
    /// role's search_path was when the connection opened (bootstrap sets
    /// supabase_admin's to include auth: a connection opened before and one opened
    /// after would otherwise print the same objects differently).
    static func fingerprint(_ connection: Connection) throws -> [String] {
        try connection.rolledBack {
            try connection.execute("set local search_path = ''")
            return try rows(connection)
        }
    }

    private static func rows(_ connection: Connection) throws -> [String] {
        try connection.query(
            """
            with acl(kind, name, grants) as (
              select 'schema', nspname, (select string_agg(g, ',' order by g) from aclexplode(nspacl) a,
                                         format('%s:%s:%s', a.grantee::regrole, a.privilege_type, a.is_grantable) g)
              from pg_namespace where nspname in (\(raw: schemas))
              union all
              select 'relation', c.oid::regclass::text || ' owner=' || c.relowner::regrole || ' rls=' || c.relrowsecurity,
                     (select string_agg(g, ',' order by g) from aclexplode(c.relacl) a,
                             format('%s:%s:%s', a.grantee::regrole, a.privilege_type, a.is_grantable) g)
              from pg_class c where c.relnamespace::regnamespace::text in (\(raw: schemas)) and c.relkind in ('r', 'v', 'S', 'i')
              union all
              select 'function', p.oid::regprocedure::text || ' owner=' || p.proowner::regrole || ' body=' || md5(p.prosrc),
                     (select string_agg(g, ',' order by g) from aclexplode(p.proacl) a,
                             format('%s:%s:%s', a.grantee::regrole, a.privilege_type, a.is_grantable) g)
              from pg_proc p where p.pronamespace::regnamespace::text in (\(raw: schemas))
              union all
              select 'default acl', format('%s %s %s', d.defaclrole::regrole, d.defaclnamespace::regnamespace, d.defaclobjtype),
                     (select string_agg(g, ',' order by g) from aclexplode(d.defaclacl) a,
                             format('%s:%s:%s', a.grantee::regrole, a.privilege_type, a.is_grantable) g)
              from pg_default_acl d
              union all
              select 'database owner=' || datdba::regrole, datname,
                     (select string_agg(g, ',' order by g) from aclexplode(datacl) a,
                             format('%s:%s:%s', a.grantee::regrole, a.privilege_type, a.is_grantable) g)
              from pg_database where datname = current_database()
            )
            select kind || ' ' || name || ' ' || coalesce(grants, '') from acl
            union all
            select format('role %s super=%s inherit=%s login=%s bypassrls=%s createrole=%s createdb=%s replication=%s',
                          rolname, rolsuper, rolinherit, rolcanlogin, rolbypassrls, rolcreaterole, rolcreatedb, rolreplication)
            from pg_roles where rolname = any(\(array: SupabaseCompat.roles)::text[])
            union all
            select format('member %s in %s', m.member::regrole, m.roleid::regrole) from pg_auth_members m
            where m.member::regrole::text = any(\(array: SupabaseCompat.roles)::text[]) and m.roleid::regrole::text = any(\(array: SupabaseCompat.roles)::text[])
            union all
            select format('setting %s %s', s.setrole::regrole, s.setconfig) from pg_db_role_setting s
            where (s.setrole = 0 or s.setrole::regrole::text = any(\(array: SupabaseCompat.roles)::text[]))
              and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
            union all
            select format('column %s.%s %s default=%s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
                          pg_get_expr(d.adbin, d.adrelid))
            from pg_attribute a join pg_class c on c.oid = a.attrelid
            left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where c.relnamespace::regnamespace::text in ('auth', 'storage') and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
            union all
            select format('trigger %s %s', tgrelid::regclass, tgname) from pg_trigger
            where not tgisinternal and tgrelid::regclass::text ~ '^(auth|storage)\\.'
            union all
            select format('policy %s.%s %s', schemaname, tablename, policyname) from pg_policies
            union all
            select format('type %s', t.oid::regtype) from pg_type t
            where t.typnamespace::regnamespace::text in ('auth', 'storage') and t.typtype = 'e'
            union all
            select format('extension %s in %s by %s', extname, extnamespace::regnamespace, extowner::regrole) from pg_extension
            union all
            select format('publication %s owner=%s all=%s tables=%s', pubname, pubowner::regrole, puballtables,
                          (select count(*) from pg_publication_rel r where r.prpubid = p.oid)) from pg_publication p
            union all
            select format('event trigger %s %s %s', evtname, evtevent, evtfoid::regproc) from pg_event_trigger
            order by 1
            """
        ).rows.map { $0.first.flatMap { $0 } ?? "" }
    }

    /// The rows only one of two fingerprints has, sorted: empty when they agree, and
    /// short enough to read in a failing test's message.
    static func difference(_ one: [String], _ other: [String]) -> [String] {
        Set(one).symmetricDifference(other).sorted()
    }
}
