import WardenPostgres

/// The values a project's access rules single out: the string literals of its row-level
/// security policies and of its own functions' bodies (`role = 'admin'`, a custom access
/// token hook's or an `authorize()` function's `'moderator'`).
///
/// A drafted setup row that gives a persona such a value in a role column (an enum
/// label, a value a check lists, the key of a lookup table's row) makes the persona what
/// the rules single out, most often an administrator, while a fresh sign-up is an
/// ordinary user: every cell and DANGER for "a signed-in user" would then describe an
/// administrator. So the draft orders a role column's values with those the rules do
/// not name first (`DraftCatalog.Column.labels`, `allowedValues`), picks a lookup row
/// they do not name (`keys`), and gives no row where every value is named
/// (`Column.everyValueSingledOut`: a fresh sign-up has no such row).
struct DraftSingledOutValues {
    /// The literals (quotes undoubled), at most 63 characters each: a name's length.
    var literals: Set<String> = []
    /// Those of them the rules themselves name: the policies, the functions they call,
    /// and those shaped as a custom access token hook (one `jsonb` in, `jsonb` out).
    var ruleLiterals: Set<String> = []
    /// `schema.table|column` of a referenced lookup column -> its values among `literals`.
    var keys: [String: [String]] = [:]
    /// Those lookup columns (as `keys`) every value of which is among `literals`.
    var everyKeyNamed: Set<String> = []
    /// Tables that say who a user is: a user column, and read by a policy helper that
    /// reads the signed-in user (`current_app_role()`: `select profile_id from
    /// user_profiles where user_id = auth.uid()`; a function a policy calls, that takes no
    /// row's key) or by another table's policy that does (`exists (select 1 from
    /// user_roles r where r.user_id = auth.uid() and r.role = 'admin')`). Their listed and
    /// looked-up values are treated as roles whatever the column's name. (An RPC reusing
    /// the caller's `status = 'draft'` bill, and `owns_bill(p_bill_id)`, made bills such a
    /// table: "may set their own status to 'draft'" was a made-up DANGER.) Another table's
    /// policy names its user column too: a child's `exists (select 1 from articles a where
    /// a.id = article_id and (a.status = 'published' or has_role(auth.uid(), 'admin')))`
    /// reads the article's status, not who the user is (taken as a role, no article was
    /// published, and anon's read of every published one went unseen).
    /// Nor a child's policy reading its parent's owner (`payments`' `exists (select 1
    /// from bookings b where b.id = booking_id and b.renter_id = auth.uid())`): the
    /// booking is the payment's parent, and its `payment_status`, which a payment's
    /// trigger keeps, no role (taken as one, payments were given to no persona and 18 of
    /// a booking app's cells unprobed; round thirty-six).
    var attributeTables: Set<String> = []
    /// Column name -> the literals the rules compare it with (`role = 'admin'`, `role in
    /// ('admin', ...)`: the first), in policies and in the bodies of the functions policies
    /// call that read the signed-in user (`is_admin()`). A free-text role column's
    /// privileged values: it lists none (no enum, no check).
    var comparedWith: [String: [String]] = [:]

    /// `literals`, `attributeTables` and `comparedWith` (`column|literal`), JSON arrays in one row (run with an empty
    /// search_path, so policies name tables qualified). The literals are those of every
    /// policy, and of the bodies of the functions outside Supabase's own schemas that no
    /// extension installed (pgTAP's thousands of messages are not the project's rules).
    /// Each policy is deparsed once, and each body tested for reading the user once (a
    /// check per table and policy deparsed them again for every table: 70 ms on a project
    /// of 39 tables and 171 policies).
    static func sql(_ schemaArray: String) -> SQL {
        """
        with policies as materialized (
               select p.polrelid, coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' '
                                  || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '') as body
               from pg_policy p),
             functions as materialized (
               select p.prosrc as body, p.proname::text as name, 'uuid'::regtype = any(p.proargtypes) as takes_a_key,
                      p.pronargs as arguments,
                      (p.pronargs = 1 and p.proargtypes[0] = 'jsonb'::regtype and p.prorettype = 'jsonb'::regtype) as hook_like
               from pg_proc p join pg_namespace n on n.oid = p.pronamespace
               where p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
                 and n.nspname <> all(\(PostgresArray.literal(LintCatalog.systemSchemas))::text[])
                 and n.nspname not like 'pg\\_%'
                 and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass
                                 and d.objid = p.oid and d.deptype = 'e')),
             user_readers as materialized (
               select lower(f.body) as body, f.body as text from functions f
               where (strpos(lower(f.body), 'auth.') > 0 and f.body ~* 'auth\\.(uid|jwt)\\s*\\('
                      and not f.takes_a_key
                      and exists (select from policies q where strpos(q.body, f.name || '(') > 0))
                  -- or one whose only argument the policies give as the signed-in user
                  -- (`is_developer(auth.uid())` over `developers (user_id, is_active)`):
                  -- the user is the key it takes
                  or (f.takes_a_key and f.arguments = 1
                      and exists (select from policies q
                                  where strpos(q.body, f.name || '(') > 0
                                    and q.body ~ (f.name || '\\(\\s*(?:\\(\\s*SELECT\\s+auth\\.uid\\(\\)(?:\\s+AS\\s+\\w+)?\\s*\\)|auth\\.uid\\(\\))\\s*\\)'))))
        select
          coalesce(array_to_json(array(
            select distinct replace(m[1], '''''', '''')
            from (select body from policies union all select body from functions) s,
                 regexp_matches(s.body, '''((?:[^'']|'''')*)''', 'g') m
            where length(m[1]) between 1 and 63
            order by 1)), '[]')::text,
          coalesce(array_to_json(array(
            select format('%s.%s', n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p')
              and exists (select from pg_constraint k where k.conrelid = c.oid and k.contype = 'f'
                          and k.confrelid = 'auth.users'::regclass)
              and (exists (select from user_readers f where strpos(f.body, lower(c.relname)) > 0)
                   or exists (select from policies q
                              where q.polrelid <> c.oid and strpos(q.body, format('%s.%s', n.nspname, c.relname)) > 0
                                and strpos(q.body, 'auth.uid()') > 0
                                -- not the policy of a table with a key to it: that reads its
                                -- parent's owner, whose row it is, not what the user is
                                and not exists (select from pg_constraint k2 where k2.conrelid = q.polrelid
                                                and k2.contype = 'f' and k2.confrelid = c.oid)
                                and exists (select from pg_constraint u
                                            join pg_attribute a on a.attrelid = c.oid and a.attnum = any(u.conkey)
                                            where u.conrelid = c.oid and u.contype = 'f'
                                              and u.confrelid = 'auth.users'::regclass
                                              and strpos(q.body, a.attname::text) > 0)))
            order by 1)), '[]')::text,
          coalesce(array_to_json(array(
            select distinct m[1] || '|' || replace(m[2], '''''', '''')
            from (select body from policies union all select text from user_readers) s,
                 regexp_matches(s.body, '([A-Za-z_][A-Za-z0-9_]*)"?\\)?\\s*(?:=|\\mIN\\s*\\()\\s*''((?:[^'']|'''')*)''', 'gi') m
            where length(m[2]) between 1 and 63
            union
            -- A claim a custom access token hook issues, compared as a column is
            -- (`auth.jwt() ->> 'app_role' = 'admin'`): a column of its name is where a
            -- hook reads it from (`select app_role from profiles`), and a user setting
            -- it on their own row is given the claim with their next token.
            select distinct m[1] || '|' || replace(m[2], '''''', '''')
            from (select body from policies union all select text from user_readers) s,
                 regexp_matches(s.body, 'auth\\.jwt\\(\\)\\s*->>\\s*''([A-Za-z_][A-Za-z0-9_]*)''(?:::text)?\\)?\\s*(?:=|\\mIN\\s*\\()\\s*''((?:[^'']|'''')*)''', 'gi') m
            where length(m[2]) between 1 and 63
              and m[1] <> all(\(PostgresArray.literal(DraftCatalog.standardClaims.sorted()))::text[])
            order by 1)), '[]')::text,
          coalesce(array_to_json(array(
            select distinct replace(m[1], '''''', '''')
            from (select body from policies
                  union all
                  select f.body from functions f
                  where f.hook_like or exists (select from policies q where strpos(q.body, f.name || '(') > 0)) s,
                 regexp_matches(s.body, '''((?:[^'']|'''')*)''', 'g') m
            where length(m[1]) between 1 and 63
            order by 1)), '[]')::text
        """
    }

    /// Reads the values of each referenced column (`schema.table` as SQL names it, and a
    /// column name) whose rows the rules name, by that value or another of the row's, in
    /// one round trip; a table the reader may not read leaves them all out (the draft
    /// then picks as before).
    mutating func readKeys(_ connection: Connection, of references: [(table: String, column: String)]) {
        let unique = Array(Set(references.map { "\($0.table)|\($0.column)" })).sorted()
        guard !literals.isEmpty, !unique.isEmpty else { return }
        let values = literals.sorted()
        let queries: [SQL] = unique.map { key in
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            let column = SQL.quoteIdentifier(parts[1])
            // A row is named by its key or by any other value of it (`roles (id, name)` with
            // `r.name = 'super_admin'` in a rule: the key 1 is not the literal, its name is).
            // A text or a number, not a JSON container: an organisation's `settings '{}'`
            // matched a helper's `coalesce(..., '{}')`, and an HR app's one organisation
            // was taken for a role no persona may hold (round thirty-seven).
            let named: SQL = """
                (r.\(raw: column)::text = any(\(array: values)::text[])
                 or exists (select from jsonb_each(to_jsonb(r)) e
                            where jsonb_typeof(e.value) in ('string', 'number') and e.value #>> '{}' = any(\(array: values)::text[])))
                """
            return """
                select coalesce(array_to_json(array(
                  select distinct r.\(raw: column)::text from \(raw: parts[0]) r where \(named) limit 50)), '[]')::text,
                  (not exists (select from \(raw: parts[0]) r where not \(named)))::text
                """
        }
        guard let results = try? CatalogReads.run(connection, queries) else { return }
        for (key, result) in zip(unique, results) {
            let row = result.rows.first ?? []
            let found = JSONStringArray.decode(row.first ?? nil)
            if !found.isEmpty { keys[key] = found }
            if !found.isEmpty, row.count > 1, row[1] == "true" { everyKeyNamed.insert(key) }
        }
    }

    /// A column holding a user's role: its name or its type's says role or permission
    /// (`role`, `role_id`, `app_role`, `permission`). Other listed values (a row's
    /// `status`) are states of the row, not of its user.
    static func namesARole(column: String, type: String) -> Bool {
        [column, type].contains { name in
            let lowered = name.lowercased()
            return lowered.contains("role") || lowered.contains("permission")
        }
    }

    /// `values` with those the rules do not name first; then those only functions name
    /// that no policy calls (an admin RPC's `where role = 'student'`, counting whom it
    /// serves) whose names say little (`privilegeRank`); then those the rules name; then
    /// the other values only such functions name (an 'admin' only an admin RPC's guard
    /// names); each group in its order.
    func ordinaryFirst(_ values: [String]) -> [String] {
        func rank(_ value: String) -> Int {
            guard literals.contains(value) else { return 0 }
            if ruleLiterals.contains(value) { return 2 }
            return Self.privilegeRank(value) < 2 ? 3 : 1
        }
        return values.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// True when there are values and the rules name every one: the policies, or a
    /// function a policy calls (a value only an admin RPC names, `'student'` among
    /// 'admin' and 'instructor', left every persona without a row: 194 of 708 probes
    /// unstated on an exam-prep LMS; round thirty-eight).
    func namesEvery(_ values: [String]) -> Bool {
        !values.isEmpty && values.allSatisfy(ruleLiterals.contains)
    }

    /// How much a role's name says it may do, strongest first: an administrator's or an
    /// owner's (0), then a moderator's, manager's, staff's or editor's (1), then any other (2).
    static func privilegeRank(_ value: String) -> Int {
        let name = value.lowercased()
        if ["admin", "owner", "super", "root"].contains(where: name.contains) { return 0 }
        if ["moderator", "manager", "staff", "editor"].contains(where: name.contains) { return 1 }
        return 2
    }
}
