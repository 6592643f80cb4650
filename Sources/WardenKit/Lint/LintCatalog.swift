import Foundation
import WardenPostgres

/// Reads the findings of `LintRule` from the catalog (pgwarden's own queries; the
/// facts each rule stands on are in docs/lint.md). Relations and functions of the
/// exposed schemas that anon or authenticated can reach are "in the API"; policies and
/// functions are looked at in every schema but Supabase's own (`systemSchemas`).
struct LintCatalog {
    let connection: Connection
    let schemas: [String]

    /// Schemas Supabase and extensions manage, whose objects are not the project's.
    static let systemSchemas = [
        "auth", "storage", "realtime", "extensions", "graphql", "graphql_public", "pgbouncer", "pgsodium",
        "pgsodium_masks", "vault", "net", "cron", "supabase_functions", "supabase_migrations", "pgtle", "pgmq",
        "pgroonga", "repack", "tiger", "topology", "information_schema", "pg_catalog", "pg_toast",
        "_timescaledb_cache", "_timescaledb_catalog", "_timescaledb_config", "_timescaledb_internal",
    ]

    /// Every finding, in rule order then subject order, and the policies read (their
    /// roles and commands say as whom an always-true policy is probed).
    func read() throws -> (findings: [LintFinding], policies: [LintPolicyRules.Policy]) {
        // pg_get_expr with an empty search_path qualifies every name (auth.uid()).
        // Every query in one round trip.
        let results = try CatalogReads.run(connection, [
            apiRelationsSQL, tablesAndPoliciesSQL, policiesSQL, multiplePermissiveSQL, functionsSQL, extensionsSQL,
        ], emptySearchPathFrom: 0).map(\.rows)
        var findings: [LintFinding] = []
        findings += apiRelations(results[0])
        findings += tablesAndPolicies(results[1])
        let policies = policies(results[2])
        findings += try LintPolicyRules(policies: policies).findings()
        findings += multiplePermissive(results[3])
        findings += functions(results[4])
        findings += extensions(results[5])
        return (findings, policies)
    }

    private var exposed: String { PostgresArray.literal(schemas) }
    private var system: String { PostgresArray.literal(Self.systemSchemas) }

    /// `r.oid` of the API roles that exist (anon, authenticated).
    private static let apiRoleReads = """
        exists (select 1 from pg_roles r where r.rolname in ('anon', 'authenticated')
                and has_table_privilege(r.oid, c.oid, 'select'))
        """
    private static let notExtensionMember = """
        not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
        """

    /// Views, materialized views and foreign tables in the API, and views reading auth.users.
    private var apiRelationsSQL: SQL {
        """
        select n.nspname, c.relname, c.relkind::text,
               coalesce((select lower(o.option_value) in ('true', 'on', 'yes', '1')
                         from pg_options_to_table(c.reloptions) o where o.option_name = 'security_invoker'), false)::text,
               exists (select 1 from pg_rewrite w join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = w.oid
                       where w.ev_class = c.oid and d.refobjid = to_regclass('auth.users'))::text,
               coalesce((select u.relrowsecurity from pg_class u where u.oid = to_regclass('auth.users')), false)::text
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any(\(exposed)::text[]) and n.nspname <> all(\(system)::text[]) and c.relkind in ('v', 'm', 'f')
          and \(raw: Self.apiRoleReads) and \(raw: Self.notExtensionMember)
        order by n.nspname, c.relname
        """
    }

    private func apiRelations(_ rows: [[String?]]) -> [LintFinding] {
        var findings: [LintFinding] = []
        for row in rows {
            let (schema, name, kind) = (row[0] ?? "", row[1] ?? "", row[2] ?? "")
            let invoker = row[3] == "true", readsUsers = row[4] == "true", usersRLS = row[5] == "true"
            let objectKind: LintFinding.ObjectKind = kind == "v" ? .view : kind == "m" ? .materializedView : .foreignTable
            func finding(_ rule: LintRule, _ detail: String) -> LintFinding {
                LintFinding(rule: rule, kind: objectKind, schema: schema, name: name, detail: detail)
            }
            if kind == "v" && !invoker {
                findings.append(finding(.securityDefinerView,
                    "view \(schema).\(name) runs with its owner's rights (not security_invoker): the owner's privileges and row-level security apply, not the caller's"))
            }
            if readsUsers && (kind == "m" || (kind == "v" && (!invoker || !usersRLS))) {
                findings.append(finding(.authUsersExposed,
                    "\(objectKind.rawValue) \(schema).\(name) reads auth.users and anon or authenticated may select from it"))
            }
            if kind == "m" {
                findings.append(finding(.materializedViewInAPI,
                    "materialized view \(schema).\(name) is in the API; materialized views have no row-level security"))
            }
            if kind == "f" {
                findings.append(finding(.foreignTableInAPI,
                    "foreign table \(schema).\(name) is in the API; foreign tables have no row-level security"))
            }
        }
        return findings
    }

    /// RLS off on a table in the API; policies without RLS; RLS without policies.
    private var tablesAndPoliciesSQL: SQL {
        """
        select n.nspname, c.relname, c.relrowsecurity::text,
               (select string_agg(p.polname, ', ' order by p.polname) from pg_policy p where p.polrelid = c.oid),
               (n.nspname = any(\(exposed)::text[]) and \(raw: Self.apiRoleReads))::text
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname <> all(\(system)::text[]) and n.nspname not like 'pg\\_%'
          and \(raw: Self.notExtensionMember)
        order by n.nspname, c.relname
        """
    }

    private func tablesAndPolicies(_ rows: [[String?]]) -> [LintFinding] {
        var findings: [LintFinding] = []
        for row in rows {
            let (schema, name, rls, policies, inAPI) = (row[0] ?? "", row[1] ?? "", row[2] == "true", row[3], row[4] == "true")
            func finding(_ rule: LintRule, _ detail: String) -> LintFinding {
                LintFinding(rule: rule, kind: .table, schema: schema, name: name, detail: detail)
            }
            if !rls && inAPI {
                findings.append(finding(.rlsDisabledInPublic, "table \(schema).\(name) is in the API with row-level security disabled"))
            }
            if !rls, let policies {
                findings.append(finding(.policyExistsRLSDisabled,
                    "table \(schema).\(name) has policies (\(policies)) but row-level security is disabled, so none applies"))
            }
            if rls && policies == nil {
                findings.append(finding(.rlsEnabledNoPolicy,
                    "table \(schema).\(name) has row-level security enabled and no policy: no row for anyone but its owner and service_role"))
            }
        }
        return findings
    }

    private var policiesSQL: SQL {
        """
        select n.nspname, c.relname, p.polname, p.polcmd::text, p.polpermissive::text,
               (p.polroles = array[0::oid] or exists (select 1 from pg_roles r where r.oid = any(p.polroles)
                                                       and r.rolname in ('anon', 'authenticated')))::text,
               array_to_string(array(select case when r = 0 then 'public' else pg_get_userbyid(r) end
                                     from unnest(p.polroles) r), ', '),
               pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid)
        from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and c.relrowsecurity and n.nspname <> all(\(system)::text[]) and \(raw: Self.notExtensionMember)
        order by n.nspname, c.relname, p.polname
        """
    }

    private func policies(_ rows: [[String?]]) -> [LintPolicyRules.Policy] {
        rows.map { row in
            LintPolicyRules.Policy(
                schema: row[0] ?? "", table: row[1] ?? "", name: row[2] ?? "", command: row[3] ?? "*",
                permissive: row[4] == "true", forAPIRoles: row[5] == "true", roles: row[6] ?? "",
                using: row[7], check: row[8])
        }
    }

    /// More than one permissive policy for one role and one action on a table.
    private var multiplePermissiveSQL: SQL {
        """
        select n.nspname, c.relname, r.rolname, action.name,
               string_agg(p.polname, ', ' order by p.polname), json_agg(p.polname order by p.polname)::text
        from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_roles r on r.oid = any(p.polroles) or p.polroles = array[0::oid]
        cross join lateral unnest(case p.polcmd when 'r' then array['select'] when 'a' then array['insert']
                                   when 'w' then array['update'] when 'd' then array['delete']
                                   else array['select', 'insert', 'update', 'delete'] end) as action(name)
        where c.relkind = 'r' and p.polpermissive and n.nspname <> all(\(system)::text[]) and \(raw: Self.notExtensionMember)
          and not r.rolbypassrls and r.rolname not like 'pg\\_%' and r.rolname not like 'supabase%admin'
        group by n.nspname, c.relname, r.rolname, action.name
        having count(*) > 1
        order by 1, 2, 3, 4
        """
    }

    private func multiplePermissive(_ rows: [[String?]]) -> [LintFinding] {
        rows.map { row in
            LintFinding(
                rule: .multiplePermissivePolicies, kind: .table, schema: row[0] ?? "", name: row[1] ?? "",
                detail: "table \(row[0] ?? "").\(row[1] ?? "") has several permissive policies for role \(row[2] ?? "") on \(row[3] ?? ""): \(row[4] ?? "")"
                    + " (each is evaluated for every row)",
                policies: JSONStringArray.decode(row[5]))
        }
    }

    /// Security-definer functions anon or authenticated may execute (EXECUTE, and USAGE
    /// on the schema: without it every call fails, 42501); functions without a fixed search_path.
    private var functionsSQL: SQL {
        """
        select n.nspname, p.proname, \(raw: ExposedCatalog.signatureSQL), p.prosecdef::text,
               (p.prokind = 'f' and n.nspname = any(\(exposed)::text[])
                and exists (select 1 from pg_roles r where r.rolname = 'anon' and has_function_privilege(r.oid, p.oid, 'execute')
                            and has_schema_privilege(r.oid, n.oid, 'usage')))::text,
               (p.prokind = 'f' and n.nspname = any(\(exposed)::text[])
                and exists (select 1 from pg_roles r where r.rolname = 'authenticated' and has_function_privilege(r.oid, p.oid, 'execute')
                            and has_schema_privilege(r.oid, n.oid, 'usage')))::text,
               exists (select 1 from unnest(coalesce(p.proconfig, '{}')) s where s like 'search\\_path=%')::text,
               \(raw: Self.executeGrantees(role: "anon")), \(raw: Self.executeGrantees(role: "authenticated")),
               -- the tables whose policies call it
               (select string_agg(distinct format('%s.%s', tn.nspname, t.relname), ', ')
                from pg_depend d join pg_policy q on q.oid = d.objid join pg_class t on t.oid = q.polrelid
                join pg_namespace tn on tn.oid = t.relnamespace
                where d.classid = 'pg_policy'::regclass and d.refclassid = 'pg_proc'::regclass and d.refobjid = p.oid),
               -- whose body runs TRUNCATE (an SQL or PL body; a C function's is a symbol)
               (p.prolang in (select l.oid from pg_language l where l.lanname not in ('c', 'internal'))
                and p.prosrc ~* '\\mtruncate\\M')::text
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname <> all(\(system)::text[]) and n.nspname not like 'pg\\_%' and p.prokind in ('f', 'p', 'w')
          and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
        order by 3
        """
    }

    /// The grantees of EXECUTE on `p` through which `role` has it, comma-separated:
    /// `PUBLIC` (a function's ACL is NULL until its first GRANT or REVOKE, which means
    /// PostgreSQL's default: EXECUTE for PUBLIC), the role itself, roles it inherits from.
    static func executeGrantees(role: String) -> String {
        """
        coalesce((select string_agg(case when a.grantee = 0 then 'PUBLIC' else g.rolname end, ','
                                    order by a.grantee <> 0, g.rolname)
                  from pg_roles r
                  cross join aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                  left join pg_roles g on g.oid = a.grantee
                  where r.rolname = '\(role)' and a.privilege_type = 'EXECUTE'
                    and (a.grantee = 0 or pg_has_role(r.oid, a.grantee, 'usage'))), '')
        """
    }

    private func functions(_ rows: [[String?]]) -> [LintFinding] {
        var findings: [LintFinding] = []
        for row in rows {
            let (schema, name, signature) = (row[0] ?? "", row[1] ?? "", row[2] ?? "")
            func finding(_ rule: LintRule, _ detail: String) -> LintFinding {
                LintFinding(rule: rule, kind: .function, schema: schema, name: name, signature: signature, detail: detail)
            }
            let callingPolicies = row.count > 9 ? row[9] : nil
            if row[3] == "true" && row[4] == "true" {
                findings.append(finding(.anonSecurityDefinerFunctionExecutable,
                    "anon may execute security definer function \(signature), which runs with its owner's rights"
                        + ExecuteGrant.explanation(role: "anon", grantees: row[7] ?? "", signature: signature,
                                                   calledByPoliciesOf: callingPolicies)))
            }
            if row[3] == "true" && row[5] == "true" {
                findings.append(finding(.authenticatedSecurityDefinerFunctionExecutable,
                    "signed-in users may execute security definer function \(signature), which runs with its owner's rights"
                        + ExecuteGrant.explanation(role: "authenticated", grantees: row[8] ?? "", signature: signature,
                                                   calledByPoliciesOf: callingPolicies)))
            }
            // TRUNCATE empties a table whatever its policies say (PostgreSQL: operations on
            // the whole table are not subject to row security), and Supabase's default
            // privileges grant it to anon and authenticated on public's tables: an invoker
            // function that truncates empties them for any caller (an RPC resetting the
            // app's tables was "exec" and no danger).
            if row.count > 10, row[10] == "true", row[4] == "true" || row[5] == "true" {
                let callers = row[4] == "true" ? "anon" : "signed-in users"
                findings.append(finding(.apiFunctionTruncates,
                    "\(callers) may execute function \(signature), whose body runs TRUNCATE: row-level security does "
                        + "not limit it, and Supabase's default privileges give anon and authenticated TRUNCATE on public's tables; "
                        + "revoke execute on function \(signature) from \(row[4] == "true" ? "anon, " : "")authenticated, "
                        + "or revoke truncate on the tables from them"))
            }
            if row[6] != "true" {
                findings.append(finding(.functionSearchPathMutable,
                    "function \(signature) does not fix its search_path: the caller's search_path decides what its unqualified names mean"))
            }
        }
        return findings
    }

    /// Extensions installed in public (plpgsql aside).
    private var extensionsSQL: SQL {
        """
        select e.extname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where n.nspname = 'public' and e.extname <> 'plpgsql' order by 1
        """
    }

    private func extensions(_ rows: [[String?]]) -> [LintFinding] {
        rows.map { row in
            LintFinding(rule: .extensionInPublic, kind: .extension, schema: "public", name: row[0] ?? "",
                        detail: "extension \(row[0] ?? "") is installed in public; install it in another schema (extensions)")
        }
    }
}
