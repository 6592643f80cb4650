import Foundation
import WardenPostgres

/// What `plan draft` reads from the catalog beyond `ExposedCatalog`: each table's
/// columns (type, nullability, default, single-column foreign key, unique key, listed values), the
/// expressions of its row-level security policies, and which functions are
/// security definer.
struct DraftCatalog {
    struct Column {
        var name: String
        /// The base type's name (a domain's underlying type), e.g. `text`, `uuid`.
        var typeName: String
        /// pg_type.typcategory: S string, N numeric, B boolean, D date/time, E enum, A array, ...
        var category: String
        /// The declared maximum length of a string column, when it has one.
        var maxLength: Int?
        /// An enum's labels, those the project's access rules do not name first
        /// (`DraftSingledOutValues`); empty for a column that is not an enum.
        var labels: [String] = []
        /// NOT NULL without a default, identity or generation: an insert must give it.
        var required: Bool
        /// The referenced `schema.table` and column of a single-column foreign key.
        var reference: (table: String, column: String)?
        /// Part of the primary key, a unique constraint or a unique index: rows need
        /// different values in it.
        var unique = false
        /// Unique by itself (a one-column primary key or unique index): a table keyed by
        /// it has one row per value (`profiles.id`, one profile per user).
        var uniqueAlone = false
        /// The values its check constraints list (`status in ('active', 'canceled')`),
        /// when they list some; see `DraftCheckList`.
        var allowedValues: [String]? = nil
        /// An insert may give it a value: not `GENERATED ALWAYS AS IDENTITY`, not a
        /// generated column (those refuse one, 428C9).
        var writable = true
        /// A text its check constraints accept, when they list no values (`DraftCheckedText`).
        var checkedText: DraftCheckedText.Candidate? = nil
        /// A number its own checks accept (`DraftCheckedNumber`), where 1 may not be one.
        var checkedNumber: String? = nil
        /// Its default calls auth.uid() (`created_by uuid default auth.uid()`): a
        /// signed-in user's insert fills it with that user.
        var defaultsToSignedInUser = false
        /// NOT NULL, default or not (`required` is NOT NULL without a default).
        var notNull = false
        /// A uuid column with no foreign key that a trigger of its table writes into
        /// another table along with a user column there (`insert into org_map (user_id,
        /// org_id) values (new.owner, new.id)`): it holds a user. (Left NULL, the row was
        /// refused by the other table's NOT NULL, and no organisation could be probed.)
        var copiedToAUserByTrigger = false
        /// It holds a user's role: its name or its type's says so
        /// (`DraftSingledOutValues.namesARole`), or its table says who a user is
        /// (`DraftSingledOutValues.attributeTables`).
        var holdsRole = false
        /// Every value it may hold (its enum's labels, the values its checks list, its
        /// lookup table's keys) is one the project's access rules name: a row with any of
        /// them singles its user out.
        var everyValueSingledOut = false
        /// A policy of another table reads it (pg_depend): `memberships.user_id` in
        /// `organizations`' rule `id in (select organization_id from memberships where
        /// user_id = auth.uid())`.
        var readByOtherTablesPolicies = false
        /// `authenticated` may update it (a table-wide grant or the column's own), or
        /// there is no such role.
        var signedInMayUpdate = true
        /// `authenticated` may insert it (a table-wide grant or the column's own), or
        /// there is no such role.
        var signedInMayInsert = true
        /// The text a WITH CHECK of its table's policies requires it to equal (`state =
        /// 'open'`), when one does: an insert without it was refused by the policy.
        var requiredByCheck: String? = nil
        /// A flag its table's WITH CHECK asks to be true (`markColumnsRequiredByChecks`).
        var requiredTrueByCheck = false
        /// A number a child table's trigger compares with the new child row's
        /// (`stock >= new.quantity`) to refuse it (`markColumnsChildTriggersSpend`).
        var spentByChildTriggers = false
        /// A date or time its table's policies compare with the clock: 1 when they ask
        /// for one after it (`valid_until > now()`), -1 before it (`starts_at <= now()`).
        var comparedWithNow = 0
        /// A text column the policies, or the helpers they call, compare with the signed-in
        /// user's e-mail (`staff.email = auth.jwt() ->> 'email'`, `auth.email()`): it names
        /// its user by e-mail, and each persona's row gets the persona's.
        var comparedWithTokenEmail = false
        /// Its default, as `pg_get_expr` spells it (`true`, `'draft'::text`), if it has one.
        var defaultExpression: String? = nil
        /// The largest whole number its own checks name (`grade between 0 and 100`: 100).
        var highestNumberChecked: Int? = nil
        /// The period a date's checks ask it to start (`check (month = date_trunc('month',
        /// month)::date)`: `month`; also `week`, `quarter`, `year`).
        var startOfPeriod: String? = nil
        /// Its table's check constraints on it and one other column, as `pg_get_expr`
        /// spells them (`(sender <> recipient)`): `DraftStandInUser` reads them.
        var pairChecks: [String] = []
        /// Its table's check constraints on it and one or more other columns, as
        /// `pg_get_expr` spells them (`((is_manual = false) AND (plaid_stream_id IS NOT
        /// NULL)) OR ...`): `askedNotNullByAWideCheck` reads them.
        var wideChecks: [String] = []
        /// It may be NULL, has no default, and a check of two or more columns tests it
        /// with IS NOT NULL: a setup row such a check refuses is tried again with it given
        /// a value (`DraftOwnership`'s setup rows).
        var askedNotNullByAWideCheck: Bool {
            !notNull && defaultExpression == nil && wideChecks.contains { $0.contains("(\(DraftOwnership.sqlName(name)) IS NOT NULL)") }
        }
        /// Where it is a later column of a foreign key of several (`foreign key (game_id,
        /// team_id) references games (id, team_id)`): its value is taken from the row the
        /// key's leading column points at, so the two match.
        var keyPart: KeyPart? = nil
        /// Its default is `true`.
        var defaultsToTrue: Bool { defaultExpression == "true" }
        /// A check on it and another column asks it not to be NULL as a branch of an OR
        /// (`check (kind <> 'table' or area is not null)`): a row left without it may break
        /// the check where the other column keeps its default (every booking refused, and
        /// a definer function rewriting any booking changed "nothing", a WARN; round
        /// thirty-nine). Its rows and samples give it a value. Not where:
        /// - a check of it asks it to be NULL in some case (`(status = 'active' and
        ///   deactivated_at is null) or ...`: a value lost every room; `(lat is null) =
        ///   (lng is null)`: a latitude without its longitude lost every place);
        /// - the check is an either-or (`(member_id is not null) <> (guest_name is not
        ///   null)`: a guest's name beside the member's broke every booking);
        /// - the check asks for one of two columns (`storage_path is not null or
        ///   legacy_blob_id is not null`: the sample's path gives it, and a legacy id
        ///   beside it made the setup's attachments another kind).
        var askedNotNullByAPairCheck: Bool {
            let test = "(\(DraftOwnership.sqlName(name)) IS NOT NULL)"
            let null = "(\(DraftOwnership.sqlName(name)) IS NULL)"
            return !pairChecks.contains { $0.contains(null) } && pairChecks.contains { check in
                (check.contains(" OR " + test) || check.contains(test + " OR "))
                    && check.components(separatedBy: " IS NOT NULL)").count == 2
            }
        }
        /// The value its table's read policies show rows by, and one they do not, where
        /// its default does not show them (`using (is_published or author_id =
        /// auth.uid())`: true and false; `status = 'published'`: 'published' and
        /// 'draft'): the setup's rows get the hiding value, and the first persona one
        /// more row with the showing value (`DraftOwnership.setupRows`). (A default that
        /// shows every new row is kept, and a reader of every user's rows stays a DANGER.)
        var showsRows: RowVisibility? = nil

        /// A foreign key another table's policies read: its row links that table's rows
        /// to a user (a membership, an organisation's subscription), so each persona needs
        /// a row of its own there, pointing at the persona's rows.
        var linksRowsForOtherPolicies: Bool { readByOtherTablesPolicies && reference != nil && writable }

        /// A foreign key whose default is a random key (`default gen_random_uuid()`, as the
        /// dashboard gives every uuid column): the default names no row, so an insert
        /// must give it one. (Left to it, every setup row broke the key, and a chat app's
        /// mutes, read receipts and reactions were "cannot probe"; round thirty-eight.) So
        /// does a sequence's (`id serial primary key references sketches`, a one-to-one
        /// child sharing its parent's key: the sequence's 1 was a seeded row's, and the
        /// personas' rows were dropped; round thirty-nine.)
        var defaultBreaksItsKey: Bool {
            reference != nil && defaultExpression.map { $0.hasPrefix("gen_random_uuid(") || $0.hasPrefix("uuid_generate_v4(")
                || $0.hasPrefix("extensions.uuid_generate_v4(") || $0.hasPrefix("nextval(") } == true
        }

        /// Its foreign key names a user: `auth.users (id)`.
        var referencesAUser: Bool { reference.map { $0.table == "auth.users" && $0.column == "id" } == true }

        /// A role looked up in another table by foreign key (`role_id -> app_roles`).
        var looksUpRole: Bool { holdsRole && reference.map { $0.table != "auth.users" } == true }

        /// An enum's first label (one the rules do not name, where there is one).
        var firstLabel: String? { labels.first }
    }

    /// A later column of a foreign key of several columns (`Column.keyPart`): the key's
    /// leading column of `table`, the table the key references, and the columns there
    /// that this one and the lead reference.
    struct KeyPart {
        var table: String
        var lead: String
        var referencedTable: String
        var referenced: String
        var leadReferenced: String
    }

    /// A column's value that shows a row to readers and one that does not, as SQL.
    struct RowVisibility: Equatable {
        /// nil: any value shows it (`code is not null`), the sample's among them.
        var shown: String?
        var hidden: String
    }

    var columns: [String: [Column]] = [:]
    /// Table -> USING and WITH CHECK expressions of its policies (pg_get_expr text).
    var policyExpressions: [String: [String]] = [:]
    /// Table -> the column its policies compare with auth.uid() (`DraftOwnership.ownerColumn`).
    var ownerColumns: [String: String] = [:]
    /// Table -> the USING expressions of the policies that filter reads (for select or all).
    var readExpressions: [String: [String]] = [:]
    /// Table -> the bodies, lowercased, of the functions its read policies call
    /// (`can_edit(auth.uid(), study.*)` comparing the caller's profile e-mail).
    var readHelperBodies: [String: [String]] = [:]
    /// Table -> the bodies, lowercased, of the functions any of its policies call
    /// (`not is_user_blocked(auth.uid())` in an insert's WITH CHECK).
    var policyHelperBodies: [String: [String]] = [:]
    /// The functions signed-in users may call (RPCs) whose bodies raise, or that answer
    /// with their owner's rights whether something is allowed (security definer,
    /// returning boolean: `can_use_model(user, model)`): name, body lowercased, and
    /// whether it raises.
    var guardingFunctionBodies: [(name: String, body: String, raises: Bool)] = []
    /// Table -> the WITH CHECK expressions alone.
    var withCheckExpressions: [String: [String]] = [:]
    /// Table -> the expressions of the policies that govern writes (for insert, update,
    /// delete or all).
    var writeExpressions: [String: [String]] = [:]
    /// Table -> the WITH CHECK expressions of its policies for insert (or all).
    var insertChecks: [String: [String]] = [:]
    /// Table -> the USING expressions of its policies for update (or all).
    var updateUsings: [String: [String]] = [:]
    /// Table -> its policies' USING expressions (which rows a statement may touch).
    var usingExpressions: [String: [String]] = [:]
    /// Policy expressions that read no column of their table (`exists (select 1 from
    /// memberships m where m.user_id = auth.uid() and m.role = 'admin')`): they say who
    /// the user is, not whose the row is, so they are no owner rule.
    var rowlessExpressions: Set<String> = []
    /// Functions (regprocedure text as `ExposedCatalog` spells it) that are security definer.
    var securityDefiner: Set<String> = []
    /// View -> the tables and views its query reads.
    var viewSources: [String: [String]] = [:]
    /// How a call of each function whose body reads the signed-in user (`auth.uid()`,
    /// `auth.jwt()`, the request's claims) begins in a policy expression deparsed with
    /// an empty search_path: `public.is_board_owner(`.
    var userReadingCalls: [String] = []
    /// The values the project's access rules name (`DraftSingledOutValues`).
    var singledOut = DraftSingledOutValues()
    /// The parent rows' states children's write policies ask for (`DraftParentStates`).
    var parentStates = DraftParentStates()
    /// Table -> a column its policies compare with a call, without arguments, of a
    /// function that reads the signed-in user (`author_id = public.my_member_id()`: the
    /// app's own id for the user), and that call. Read as any of the table's rows, the
    /// inserts tried with the persona's own value counted as "every row": made-up
    /// DANGERs. Found once, after the policies are read (a pattern per call).
    /// `ofSet`: the call returns the user's set of values (`col in (select f())`).
    var userCallOwners: [String: (column: String, call: String, ofSet: Bool)] = [:]
    /// Tables that refuse an insert's ON CONFLICT clause: with rules on insert or update
    /// (`create rule ... do instead nothing`), or a deferrable unique or exclusion
    /// constraint, which cannot be an arbiter.
    var tablesRefusingOnConflict: Set<String> = []
    /// Tables whose rows other tables' policies read, directly or through a function
    /// they call: a membership there grants access (`members` behind `in_group(id)`),
    /// where one of `likes (user_id, post_id)` does not.
    var tablesReadByOtherTablesPolicies: Set<String> = []
    /// Tables a signed-in user may add rows to (the INSERT privilege, and no row-level
    /// security or a permissive insert policy for `authenticated` or PUBLIC).
    var tablesSignedInMayInsert: Set<String> = []
    /// Tables a signed-in user may select from whole (the table's SELECT privilege, which
    /// reading a row's `ctid` needs; a grant of some columns does not give it).
    var tablesSignedInMaySelect: Set<String> = []
    /// Tables with a trigger whose function reads the signed-in user (`auth.uid()`,
    /// `auth.jwt()`, the request's claims, or a function of the project that does):
    /// an activity log's `insert ... values (auth.uid(), ...)`. Their setup rows are
    /// made with each persona's claims set, as the persona's own request makes them;
    /// made by the admin, with none, the trigger refused every row.
    var tablesWithUserReadingTriggers: Set<String> = []
    /// Table -> the function bodies of its enabled triggers, lowercased.
    var triggerBodies: [String: [String]] = [:]
    /// Table -> the bodies of the project's functions its triggers call (`is_member(`
    /// in the body), lowercased: what a trigger reads through a helper.
    var triggerHelperBodies: [String: [String]] = [:]
    /// The function bodies of the triggers on `auth.users` (the sign-up's), lowercased:
    /// a table they write to gets a row for every new user.
    var signUpTriggerBodies = ""

    /// Whether the sign-up's trigger bodies name `table` (by its bare name): a table
    /// every new user gets a row of.
    func signUpTriggersName(_ table: String) -> Bool {
        signUpTriggerBodies.contains(DraftOwnership.bareName(of: table))
    }
    /// The `raw_user_meta_data` keys those bodies read, as written (`SignUpTriggers.metadataKeys`):
    /// the bodies above are lowercased, and a key read as `isAdmin` is not `isadmin`.
    var signUpMetadataKeys: [String] = []
    /// The same of the triggers on `auth.users` that an update fires: a user's own
    /// `updateUser({ data })` rewrites `raw_user_meta_data`, and such a trigger copying a
    /// key of it into a roles table made any user an administrator after sign-up.
    var userUpdateTriggerBodies = ""
    var userUpdateMetadataKeys: [String] = []

    /// Table -> a NOTE where its policies read the token's `app_metadata` (`auth.jwt()
    /// -> 'app_metadata' -> 'tenants'`): the drafted personas' tokens carry only what
    /// the auth server puts there (provider, providers), so such a rule saw no tenant
    /// and every cell was silently `none`.
    /// Read through a function the policies call too (`id::text = any (public.my_org_ids())`,
    /// whose body reads `auth.jwt() -> 'app_metadata' -> 'orgs'`): every cell was `none`
    /// with no word of why (the helpers' bodies are lowercased: so are the keys shown).
    /// `carried`: the keys (lowercased) every signed-in persona's token carried in its
    /// `app_metadata` (a sign-up trigger's, the setup's): a table whose keys are all
    /// among them gets no NOTE.
    func appMetadataNotes(carried: Set<String>) -> [String: String] {
        rulesAndHelpers.compactMapValues { expressions in
            let keys = Set(expressions.flatMap(Self.appMetadataKeys)).sorted()
            guard expressions.contains(where: { $0.contains("'app_metadata'") }),
                  keys.isEmpty || !keys.allSatisfy({ carried.contains($0.lowercased()) }) else { return nil }
            let read = keys.isEmpty ? "app_metadata" : "app_metadata (" + keys.joined(separator: ", ") + ")"
            return "its policies read the token's \(read), which the drafted personas' tokens do not carry; "
                + "give a persona the claims its rules look for (claims: {app_metadata: {...}}, docs/access-plan-claims.md)"
        }
    }

    /// The claims of a Supabase Auth access token without a hook (those `AuthClaims`
    /// issues the personas, from Supabase Auth's `GenerateAccessToken`), and the other
    /// registered JWT claims: a policy reading another claim at the token's top level
    /// reads what only a custom access token hook adds.
    static let standardClaims: Set<String> = [
        "aud", "exp", "iat", "iss", "sub", "email", "phone", "role", "aal", "amr", "session_id", "is_anonymous",
        "app_metadata", "user_metadata", "jti", "nbf",
    ]

    /// Table -> a NOTE where its policies read a claim at the token's top level that
    /// Supabase Auth does not issue (`auth.jwt() ->> 'tenant_id'`, the usual output of a
    /// custom access token hook), when no hook is configured: the drafted personas'
    /// tokens carry no such claim, and every cell was silently `none`.
    var customClaimNotes: [String: String] {
        hookClaimsRead.mapValues { claims in
            "its policies read the token's \(claims.joined(separator: ", ")), which Supabase Auth adds only through a "
                + "custom access token hook, and the drafted personas' tokens do not carry; give a persona the claims its "
                + "rules look for (claims: {...}, docs/access-plan-claims.md), or configure the hook ([auth.hook.custom_access_token])"
        }
    }

    /// Table -> the claims at the token's top level that Supabase Auth does not issue
    /// (a custom access token hook's) read by its policies or by the functions they call
    /// (`has_role('dispatcher')`: `auth.jwt() ->> 'user_role'`), sorted; tables reading
    /// none left out.
    var hookClaimsRead: [String: [String]] {
        rulesAndHelpers.compactMapValues { texts in
            let claims = Set(texts.flatMap(Self.topLevelClaims)).subtracting(Self.standardClaims).sorted()
            return claims.isEmpty ? nil : claims
        }
    }

    /// Table -> its policies' expressions and the bodies of the functions they call: where
    /// the claims a table's rules read are looked for.
    private var rulesAndHelpers: [String: [String]] {
        policyExpressions.merging(policyHelperBodies, uniquingKeysWith: +)
    }

    /// The claims read at the top level of the token in a deparsed expression
    /// (`(auth.jwt() ->> 'tenant_id'::text)`, `(current_setting('request.jwt.claims'::text,
    /// true))::jsonb -> 'org'`).
    static func topLevelClaims(_ expression: String) -> [String] {
        guard let pattern = try? NSRegularExpression(
            pattern: #"(?:auth\.jwt\(\)|'request\.jwt\.claims'(?:::text)?\s*,\s*true\)\)?::jsonb)\s*->>?\s*'([^']+)'"#)
        else { return [] }
        return pattern.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)).compactMap { match in
            Range(match.range(at: 1), in: expression).map { String(expression[$0]) }
        }
    }

    /// The keys read under `app_metadata` in a deparsed expression (`-> 'app_metadata'::text) -> 'tenants'`,
    /// or through its text cast back: `((auth.jwt() ->> 'app_metadata'::text))::jsonb ->> 'role'`).
    private static func appMetadataKeys(_ expression: String) -> [String] {
        guard let pattern = try? NSRegularExpression(
            pattern: #"'app_metadata'(?:::text)?(?:\)|::jsonb?)*\s*->>?\s*'([^']+)'"#) else { return [] }
        return pattern.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)).compactMap { match in
            Range(match.range(at: 1), in: expression).map { String(expression[$0]) }
        }
    }

    /// Table -> its first column referencing `auth.users (id)`.
    var userColumns: [String: String] {
        columns.compactMapValues { columns in
            columns.first(where: \.referencesAUser)?.name
        }
    }

    /// Table -> its first column referencing `auth.users (id)` that says whose a row is,
    /// for "sees every user's rows": not one that records who last changed it
    /// (`updated_by`, `last_modified_by`), which made shared opening hours "every user's
    /// rows", three made-up DANGERs (a clinic; round thirty-eight).
    var ownersUserColumns: [String: String] {
        columns.compactMapValues { columns in
            let users = columns.filter { !Self.recordsAnEditor($0.name) }
            // Else one naming a row of a table keyed by its user (`profile -> profiles (id)`,
            // `profiles.id -> auth.users`): every signed-in user reading every user's OAuth
            // tokens was only "may insert, update, delete every row" (an HR app; round
            // thirty-nine).
            return (users.first(where: \.referencesAUser) ?? users.first(where: namesAUsersOwnRow))?.name
        }
    }

    /// Whether a column's foreign key names the one row a user has in a table keyed by
    /// its users (`profiles (id)`, where `profiles.id` references auth.users), and its
    /// name says the row is that person's (`profile`, `user_id`, `owner`; not a public
    /// board's `created_by`, which says who made it).
    func namesAUsersOwnRow(_ column: Column) -> Bool {
        guard let reference = column.reference, reference.table != "auth.users",
              columns[reference.table]?.contains(where: { $0.name == reference.column && $0.referencesAUser && $0.uniqueAlone }) == true
        else { return false }
        let words = Set(column.name.lowercased().split(separator: "_").map(String.init))
        return !words.isDisjoint(with: ["profile", "user", "owner", "member", "account", "person", "customer", "patient",
                                        "employee", "student", "client"])
    }

    /// Whether a column's name says it records who last changed the row.
    static func recordsAnEditor(_ name: String) -> Bool {
        name.lowercased().range(of: #"^(?:last_)?(?:updated|modified|edited|changed)(?:_by|by)(?:_id|_user)?$"#,
                                options: .regularExpression) != nil
    }

    static func read(_ connection: Connection, schemas: [String]) throws -> DraftCatalog {
        var catalog = DraftCatalog()
        let schemaArray = PostgresArray.literal(schemas)
        let columnsSQL: SQL = """
            select format('%s.%s', n.nspname, c.relname), a.attname, bt.typname::text, bt.typcategory::text,
                   case when bt.typcategory = 'S' and a.atttypmod > 4 then (a.atttypmod - 4)::text end,
                   array_to_json(array(select e.enumlabel::text from pg_enum e where e.enumtypid = bt.oid
                                       order by e.enumsortorder))::text,
                   (a.attnotnull and not a.atthasdef and a.attidentity = '' and a.attgenerated = '')::text,
                   (select format('%I.%I', fn.nspname, fc.relname) || '|' || fa.attname
                    from pg_constraint k
                    join pg_class fc on fc.oid = k.confrelid
                    join pg_namespace fn on fn.oid = fc.relnamespace
                    join pg_attribute fa on fa.attrelid = k.confrelid and fa.attnum = k.confkey[1]
                    -- its own foreign key, else one of several columns that it leads
                    where k.conrelid = c.oid and k.contype = 'f' and k.conkey[1] = a.attnum
                    order by cardinality(k.conkey), k.conname
                    limit 1),
                   exists (select from pg_index i
                           where i.indrelid = c.oid and i.indisunique and i.indpred is null
                             and (a.attnum = any(i.indkey::int2[]) or \(raw: Self.inIndexExpression)))::text,
                   array_to_json(array(select pg_get_expr(k.conbin, k.conrelid) from pg_constraint k
                                       where k.conrelid = c.oid and k.contype = 'c' and k.conkey = array[a.attnum]))::text,
                   (a.attidentity <> 'a' and a.attgenerated = '')::text,
                   coalesce((select position('auth.uid()' in pg_get_expr(d.adbin, d.adrelid)) > 0 from pg_attrdef d
                             where d.adrelid = c.oid and d.adnum = a.attnum), false)::text,
                   -- a policy of another table depends on it (it reads it)
                   -- (one hashed set: a correlated exists scanned every policy's dependencies
                   -- per column, 1.7 s on a 345-table project)
                   ((c.oid, a.attnum::int4) in (
                       select d.refobjid, d.refobjsubid from pg_depend d join pg_policy p on p.oid = d.objid
                       where d.classid = 'pg_policy'::regclass and d.refclassid = 'pg_class'::regclass
                         and p.polrelid <> d.refobjid))::text,
                   coalesce(has_column_privilege(to_regrole('authenticated'), c.oid, a.attnum, 'UPDATE'), true)::text,
                   exists (select from pg_index i
                           where i.indrelid = c.oid and i.indisunique and i.indpred is null and i.indnkeyatts = 1
                             and (i.indkey[0] = a.attnum or (i.indkey[0] = 0 and \(raw: Self.inIndexExpression))))::text,
                   (select pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d where d.adrelid = c.oid and d.adnum = a.attnum),
                   array_to_json(array(select pg_get_expr(k.conbin, k.conrelid) from pg_constraint k
                                       where k.conrelid = c.oid and k.contype = 'c' and cardinality(k.conkey) = 2
                                         and a.attnum = any(k.conkey)))::text,
                   -- a later column of a foreign key of several: its leading column, the
                   -- referenced table, the column it references there, and the one the lead does
                   (select json_build_array(la.attname, format('%I.%I', fn.nspname, fc.relname), fa.attname, lfa.attname)::text
                    from pg_constraint k
                    join pg_class fc on fc.oid = k.confrelid
                    join pg_namespace fn on fn.oid = fc.relnamespace
                    join lateral (select i from generate_subscripts(k.conkey, 1) i where k.conkey[i] = a.attnum) place on place.i > 1
                    join pg_attribute fa on fa.attrelid = k.confrelid and fa.attnum = k.confkey[place.i]
                    join pg_attribute la on la.attrelid = c.oid and la.attnum = k.conkey[1]
                    join pg_attribute lfa on lfa.attrelid = k.confrelid and lfa.attnum = k.confkey[1]
                    -- (the column itself is a later one: the joins above ran for every column)
                    where k.conrelid = c.oid and k.contype = 'f' and a.attnum = any(k.conkey[2:])
                    order by k.conname
                    limit 1),
                   a.attnotnull::text,
                   coalesce(has_column_privilege(to_regrole('authenticated'), c.oid, a.attnum, 'INSERT'), true)::text,
                   array_to_json(array(select pg_get_expr(k.conbin, k.conrelid) from pg_constraint k
                                       where k.conrelid = c.oid and k.contype = 'c' and cardinality(k.conkey) > 1
                                         and a.attnum = any(k.conkey)))::text
            from pg_attribute a
            join pg_class c on c.oid = a.attrelid
            join pg_namespace n on n.oid = c.relnamespace
            join pg_type t on t.oid = a.atttypid
            join pg_type bt on bt.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
            order by n.nspname, c.relname, a.attnum
            """
        // With an empty search_path, pg_get_expr schema-qualifies every name (auth.uid(),
        // public.patron), so owner rules read the same whatever the role's search_path.
        // Every query in one round trip (a savepoint inside a caller's transaction).
        let results = try CatalogReads.run(
            connection,
            [columnsSQL] + Self.policySQL(schemaArray) + [DraftSingledOutValues.sql(schemaArray)],
            emptySearchPathFrom: 1
        ).map(\.rows)
        let singledOutRow = results.last?.first ?? []
        catalog.singledOut.literals = Set(JSONStringArray.decode(singledOutRow.first ?? nil))
        catalog.singledOut.attributeTables = Set(JSONStringArray.decode(singledOutRow.count > 1 ? singledOutRow[1] : nil))
        catalog.singledOut.ruleLiterals = Set(JSONStringArray.decode(singledOutRow.count > 3 ? singledOutRow[3] : nil))
        for pair in JSONStringArray.decode(singledOutRow.count > 2 ? singledOutRow[2] : nil) {
            let parts = pair.split(separator: "|", maxSplits: 1).map(String.init)
            if parts.count == 2 { catalog.singledOut.comparedWith[parts[0], default: []].append(parts[1]) }
        }
        var checked: [(table: String, column: Column, checks: [String])] = []
        // A column whose triggers check a format too: asked in a statement of its own.
        var checkedByTriggers: [(table: String, column: Column, checks: [String])] = []
        let triggerPatterns = DraftTriggerPatterns.checks(in: results.count > 8 ? results[8] : [])
        var checkedNumbers: [(table: String, column: Column, checks: [String])] = []
        for row in results[0] {
            let reference = row[7].flatMap { text -> (String, String)? in
                let parts = text.split(separator: "|", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
            let (table, checks) = (row[0] ?? "", JSONStringArray.decode(row[9]))
            let labels = JSONStringArray.decode(row[5])
            let allowed = row[3] == "B" && DraftCheckList.requiresTrue(checks, column: row[1] ?? "")
                ? ["true"] : DraftCheckList.allowed(by: checks, column: row[1] ?? "")
            // Only a role's values are ordered: a row's state (`status = 'published'`)
            // keeps its first value, so what the rules show of such rows stays shown.
            let named = DraftSingledOutValues.namesARole(column: row[1] ?? "", type: row[2] ?? "")
            let role = named || catalog.singledOut.attributeTables.contains(table)
            let singledOut = role ? catalog.singledOut : DraftSingledOutValues()
            var column = Column(
                name: row[1] ?? "", typeName: row[2] ?? "", category: row[3] ?? "",
                maxLength: row[4].flatMap { Int($0) }, labels: singledOut.ordinaryFirst(labels), required: row[6] == "true",
                reference: reference, unique: row[8] == "true",
                allowedValues: allowed.map(singledOut.ordinaryFirst), writable: row[10] != "false",
                defaultsToSignedInUser: row[11] == "true", holdsRole: role,
                everyValueSingledOut: named && (singledOut.namesEvery(labels) || singledOut.namesEvery(allowed ?? [])),
                readByOtherTablesPolicies: row[12] == "true", signedInMayUpdate: row[13] != "false")
            column.uniqueAlone = row[14] == "true"
            column.defaultExpression = row[15]
            column.notNull = row[18] == "true"
            column.signedInMayInsert = row[19] != "false"
            column.wideChecks = JSONStringArray.decode(row[20])
            column.highestNumberChecked = checks.flatMap(DraftCheckedNumber.wholeNumbers).max()
            if column.typeName == "date" {
                column.startOfPeriod = checks.lazy.compactMap { $0.firstMatch(of: /date_trunc\('(week|month|quarter|year)'::text/)?.1 }
                    .first.map(String.init)
            }
            column.pairChecks = JSONStringArray.decode(row[16])
            let part = JSONStringArray.decode(row[17])
            if part.count == 4 {
                column.keyPart = KeyPart(table: table, lead: part[0], referencedTable: part[1], referenced: part[2], leadReferenced: part[3])
            }
            catalog.columns[table, default: []].append(column)
            // A text or number column whose checks list no values: the server tries
            // candidates below.
            let formats = column.category == "S" ? triggerPatterns[table]?[column.name] ?? [] : []
            if column.category == "S", column.allowedValues == nil, !checks.isEmpty, formats.isEmpty { checked.append((table, column, checks)) }
            if column.allowedValues == nil, !formats.isEmpty { checkedByTriggers.append((table, column, checks + formats)) }
            if column.category == "N", column.allowedValues == nil, !checks.isEmpty,
               ["int2", "int4", "int8", "numeric", "float4", "float8"].contains(column.typeName) {
                checkedNumbers.append((table, column, checks))
            }
        }
        catalog.setColumns(\.checkedText, to: DraftCheckedText.read(connection, checks: checked)
            .merging(DraftCheckedText.read(connection, checks: checkedByTriggers)) { $0.merging($1) { own, _ in own } })
        catalog.setColumns(\.checkedNumber, to: DraftCheckedNumber.read(connection, checks: checkedNumbers))
        catalog.readPolicies(Array(results.dropFirst().dropLast()))
        catalog.referUnkeyedGroupColumns()
        catalog.shortenKeysToTheirReferences()
        for table in catalog.columns.keys {
            catalog.ownerColumns[table] = DraftOwnership.findOwnerColumn(of: table, in: catalog)
        }
        catalog.findUserCallOwners()
        catalog.markColumnsComparedWithNow()
        catalog.markColumnsComparedWithTokenEmail()
        catalog.markColumnsRequiredByChecks()
        catalog.addPairChecksOfInsertPolicies()
        catalog.markColumnsShowingRows()
        catalog.parentStates = DraftParentStates(withChecks: catalog.withCheckExpressions, columns: catalog.columns)
        // The lookup rows a role column may pick (`app_roles ('admin', 'viewer')`).
        catalog.singledOut.readKeys(connection, of: catalog.columns.values.joined().filter(\.looksUpRole).compactMap(\.reference))
        // A role column whose every lookup row the rules name (`profiles` 'technical_admin',
        // 'controller', ...): no persona row, as for an enum.
        for (table, columns) in catalog.columns {
            for (index, column) in columns.enumerated() where column.looksUpRole {
                guard let reference = column.reference,
                      catalog.singledOut.everyKeyNamed.contains("\(reference.table)|\(reference.column)") else { continue }
                catalog.columns[table]?[index].everyValueSingledOut = true
            }
        }
        return catalog
    }

    /// Policy expressions, security-definer functions, view sources, the functions
    /// that read the signed-in user, and the tables with insert or update rules.
    /// Whether column `a` is read by an expression of index `i` (`unique (lower(btrim(name)))`:
    /// the index depends on each column its expressions read). Without it, both personas'
    /// teams were named 'Draft name', the second was dropped, and both sat in one team.
    private static let inIndexExpression = """
        (i.indexprs is not null and exists (select from pg_depend d where d.classid = 'pg_class'::regclass
           and d.objid = i.indexrelid and d.refclassid = 'pg_class'::regclass and d.refobjid = c.oid and d.refobjsubid = a.attnum))
        """

    private static func policySQL(_ schemaArray: String) -> [SQL] {
        [
            """
            select format('%s.%s', n.nspname, c.relname), pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid),
                   -- whether it reads a column of its table (a policy depends on each it reads),
                   -- or the whole row (`can_edit(auth.uid(), docs.*)`: no column's dependency)
                   (exists (select from pg_depend d where d.classid = 'pg_policy'::regclass and d.objid = p.oid
                            and d.refobjid = p.polrelid and d.refobjsubid > 0)
                    or strpos(coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), ''),
                              quote_ident(c.relname) || '.*') > 0)::text,
                   (p.polcmd in ('r', '*'))::text, (p.polcmd <> 'r')::text, p.polcmd::text
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[])
            order by p.polname
            """,
            """
            select \(raw: ExposedCatalog.signatureSQL)
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = any(\(schemaArray)::text[]) and p.prosecdef
            """,
            """
            select distinct format('%s.%s', vn.nspname, v.relname), format('%s.%s', tn.nspname, t.relname)
            from pg_rewrite r
            join pg_class v on v.oid = r.ev_class
            join pg_namespace vn on vn.oid = v.relnamespace
            join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
                            and d.refclassid = 'pg_class'::regclass and d.refobjid <> v.oid
            join pg_class t on t.oid = d.refobjid
            join pg_namespace tn on tn.oid = t.relnamespace
            where vn.nspname = any(\(schemaArray)::text[]) and v.relkind in ('v', 'm')
            order by 1, 2
            """,
            // The project's functions that read the user, or call one that does (two calls
            // deep: artemis's `is_auth_in_org_of_alias(id)` reads it through
            // `is_auth_member_of_org(...)`; without it no owner rule was drafted, and six
            // "may insert, update, delete every row" DANGERs were made up).
            """
            with recursive project as materialized (
              select p.oid, p.proname, p.prosrc, n.nspname
              from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              -- pg_catalog's thousands of functions are left out first, by an oid
              -- comparison, then the other platform schemas' (a pattern run on every
              -- function cost 19 ms of a planless run with pgTAP installed; issue 18).
              where p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace and p.prokind = 'f'
                and n.nspname <> all(\(PostgresArray.literal(LintCatalog.systemSchemas))::text[])
                and n.nspname not like 'pg\\_%'),
            readers(oid, proname, depth) as (
              -- strpos passes over the bodies that cannot match before the regex engine does.
              select oid, proname, 0 from project
              where (strpos(lower(prosrc), 'auth.') > 0 or strpos(lower(prosrc), 'request.jwt.claim') > 0)
                and prosrc ~* 'auth\\.(uid|jwt)\\s*\\(|request\\.jwt\\.claim'
              union
              select f.oid, f.proname, r.depth + 1 from readers r
              join project f on f.oid <> r.oid and strpos(lower(f.prosrc), lower(r.proname::text)) > 0
               and f.prosrc ~* ('\\m' || r.proname || '\\s*\\(')
              where r.depth < 2)
            select distinct format('%I.%I(', f.nspname, f.proname)
            from readers r join project f on f.oid = r.oid
            order by 1
            """,
            // Tables that refuse ON CONFLICT: with rules on insert or update, or a deferrable
            // unique or exclusion constraint (0A000, or 55000 "ON CONFLICT does not support
            // deferrable unique constraints/exclusion constraints as arbiters").
            """
            select format('%s.%s', n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p')
              and (exists (select from pg_rewrite r where r.ev_class = c.oid and r.ev_type in ('2', '3'))
                   or exists (select from pg_index i where i.indrelid = c.oid and not i.indimmediate))
            """,
            // Tables whose rows other tables' policies read: in the expression itself
            // (a policy depends on each table it reads), or in the body of a function
            // the expression calls (`public.in_group(id)` reading `members`).
            """
            -- Each policy deparsed once, then the project's functions (not the platform's:
            -- thousands, 0.4 s on a 43-table project when deparsed per function) it calls.
            with texts as materialized (
              select p.polrelid, coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' '
                                 || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '') as text
              from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = any(\(schemaArray)::text[])),
            called as materialized (
              select distinct t.polrelid, f.prosrc
              from texts t
              join pg_proc f on f.prokind = 'f' and f.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
               and strpos(t.text, f.proname::text || '(') > 0
              join pg_namespace fn on fn.oid = f.pronamespace
               and fn.nspname <> all(\(PostgresArray.literal(LintCatalog.systemSchemas))::text[]) and fn.nspname not like 'pg\\_%')
            select format('%s.%s', n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p')
              and (exists (select from pg_depend d join pg_policy p on p.oid = d.objid
                           where d.classid = 'pg_policy'::regclass and d.refclassid = 'pg_class'::regclass
                             and d.refobjid = c.oid and p.polrelid <> c.oid)
                   or exists (select from called k where k.polrelid <> c.oid and strpos(k.prosrc, c.relname::text) > 0
                                and k.prosrc ~* ('\\m' || c.relname || '\\M')))
            """,
            // Tables a signed-in user may add rows to: the privilege, and no row security
            // or a permissive insert policy for authenticated or PUBLIC.
            """
            select format('%s.%s', n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p')
              -- or on some of its columns (`grant insert (user_b) on chats`, its `user_a`
              -- left to `default auth.uid()`: a user's chat was "a privilege someone else
              -- grants", and no persona was in any chat; round thirty-eight)
              and coalesce(has_any_column_privilege(to_regrole('authenticated'), c.oid, 'INSERT'), true)
              and (not c.relrowsecurity
                   or exists (select from pg_policy p where p.polrelid = c.oid and p.polpermissive and p.polcmd in ('a', '*')
                                and (p.polroles = array[0::oid] or to_regrole('authenticated') = any(p.polroles))))
            """,
            // Each table's enabled triggers' function bodies (`readPolicies` looks for
            // what reads the signed-in user in them).
            """
            select format('%s.%s', n.nspname, c.relname), f.prosrc,
                   (select string_agg(g.prosrc, e'\\n' order by g.oid) from pg_proc g
                    join pg_namespace gn on gn.oid = g.pronamespace
                    where g.oid <> f.oid and g.prolang in (select l.oid from pg_language l where l.lanname in ('sql', 'plpgsql'))
                      and gn.nspname not like 'pg\\_%' and gn.nspname not in
                          ('information_schema', 'auth', 'storage', 'extensions', 'realtime', 'graphql', 'graphql_public',
                           'vault', 'pgsodium', 'net', 'supabase_functions', 'cron', 'pgbouncer')
                      and strpos(lower(f.prosrc), lower(g.proname) || '(') > 0)
            from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
            join pg_proc f on f.oid = t.tgfoid
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p') and not t.tgisinternal
              and t.tgenabled <> 'D'
            """,
            // The function bodies of the sign-up's triggers (on auth.users), as one text;
            // then those of the triggers an update fires (pg_trigger.tgtype bit 16).
            """
            select string_agg(f.prosrc, ' '), string_agg(f.prosrc, ' ') filter (where t.tgtype::int & 16 = 16)
            from pg_trigger t join pg_proc f on f.oid = t.tgfoid
            where t.tgrelid = to_regclass('auth.users') and not t.tgisinternal and t.tgenabled <> 'D'
            """,
            // Tables a signed-in user may select from whole (the table's SELECT privilege).
            """
            select format('%s.%s', n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p')
              and coalesce(has_table_privilege(to_regrole('authenticated'), c.oid, 'SELECT'), false)
            """,
            // The bodies of the project's functions that policies call (a policy depends
            // on each function its expressions call), and whether a read policy does.
            """
            select format('%s.%s', n.nspname, c.relname), f.prosrc, bool_or(p.polcmd in ('r', '*'))::text
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
            join pg_depend d on d.classid = 'pg_policy'::regclass and d.objid = p.oid and d.refclassid = 'pg_proc'::regclass
            join pg_proc f on f.oid = d.refobjid
            where n.nspname = any(\(schemaArray)::text[])
              and f.pronamespace <> 'pg_catalog'::regnamespace
            group by 1, 2
            """,
            // The functions signed-in users may call through the Data API (an RPC) whose
            // bodies raise (`if not found then raise exception 'no credits left'`), or
            // that answer with their owner's rights whether something is allowed (a
            // definer function returning boolean), by name: `DraftWriteCheck.guardedLimits`
            // reads them.
            """
            select p.proname::text, p.prosrc
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = any(\(schemaArray)::text[]) and p.prokind = 'f'
              and p.prorettype <> 'trigger'::regtype
              and (strpos(lower(p.prosrc), 'raise') > 0 or (p.prosecdef and p.prorettype = 'boolean'::regtype))
              and has_function_privilege(to_regrole('authenticated'), p.oid, 'EXECUTE')
              and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                              and d.deptype = 'e')
            order by 1
            """,
        ]
    }

    /// Sets `userCallOwners`: the first column of a table's policies compared with a
    /// user-reading call without arguments (either side of `=`, bare or as `(SELECT f()
    /// AS f)`).
    private mutating func findUserCallOwners() {
        let identifier = DraftOwnership.identifier
        let patterns: [(call: String, regexes: [NSRegularExpression])] = userReadingCalls.map { call in
            let called = #"(?:\(\s*SELECT\s+)?"# + NSRegularExpression.escapedPattern(for: call) + #"\)"#
            // `col = f()`, `f() = col`, and `col IN (SELECT f())` for a function returning
            // the user's set (`org_id in (select my_orgs())`), the last one last.
            let texts = [#"(?<![.\w"])"# + identifier + #"\s*=\s*"# + called,
                         called + #"(?:\s+AS\s+\w+\s*\))?\s*=\s*(?<![.\w"])"# + identifier + #"(?![.\w(])"#,
                         #"(?<![.\w"])"# + identifier + #"\s+IN\s*\(\s*SELECT\s+"# + NSRegularExpression.escapedPattern(for: call) + #"\)"#]
            return (call, texts.compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive]) })
        }
        guard !patterns.isEmpty else { return }
        // Whose a row is, USING says: a WITH CHECK that also pins another column to a
        // user-reading call (`org_id = my_org()` beside `using (author_id = auth.uid())`
        // on an evidence link) made that column the owner, a rule true of no row while
        // the persona had no organisation, and ava's delete of her own link a made-up
        // DANGER. A table whose policies have no USING (insert only) is read by its checks.
        for (table, all) in policyExpressions {
            let expressions = usingExpressions[table] ?? all
            let names = Set((columns[table] ?? []).map(\.name))
            search: for expression in expressions {
                for (call, regexes) in patterns where expression.contains(call) {
                    for (index, regex) in regexes.enumerated() {
                        for match in regex.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)) {
                            guard let found = Range(match.range(at: 1), in: expression) else { continue }
                            let name = DraftOwnership.unquoted(String(expression[found]))
                            if names.contains(name) {
                                userCallOwners[table] = (name, call + ")", index == 2)
                                break search
                            }
                        }
                    }
                }
            }
        }
    }

    /// Sets `Column.comparedWithNow` of the date and time columns from their table's
    /// policies (`valid_until > now()`: a sample of `now()` is no later than now, and
    /// every drafted row was hidden from every reader).
    private mutating func markColumnsComparedWithNow() {
        let clock = #"(?:now\(\)|CURRENT_TIMESTAMP|CURRENT_DATE|LOCALTIMESTAMP|statement_timestamp\(\)|transaction_timestamp\(\))"#
        for (table, expressions) in policyExpressions {
            let text = expressions.joined(separator: "\n")
            guard text.range(of: clock, options: .regularExpression) != nil else { continue }
            for (index, column) in (columns[table] ?? []).enumerated() where column.category == "D" {
                let name = #"(?<![\w"])"# + DraftOwnership.columnPattern(column.name)
                let later = [name + #"\s*>=?\s*"# + clock, clock + #"\s*<=?\s*"# + name + #"(?![\w"])"#]
                let earlier = [name + #"\s*<=?\s*"# + clock, clock + #"\s*>=?\s*"# + name + #"(?![\w"])"#]
                let matches = { (patterns: [String]) in
                    patterns.contains { text.range(of: $0, options: [.regularExpression, .caseInsensitive]) != nil }
                }
                columns[table]?[index].comparedWithNow = matches(later) ? 1 : matches(earlier) ? -1 : 0
            }
        }
    }

    /// Sets `Column.requiredByCheck` of the text columns (not a role's: a rule's `role =
    /// 'admin'` singles a user out) that a WITH CHECK compares with one literal. Not
    /// a column with a default: an insert that leaves it out gets the default, which
    /// the literal may only be an alternative to (`user_id = auth.uid() or (status =
    /// 'pending' and user_id is null)`, status accepted by default: every persona's
    /// membership was made pending, and no one was a member of anything).
    private mutating func markColumnsRequiredByChecks() {
        for (table, checks) in withCheckExpressions {
            let text = checks.joined(separator: "\n")
            for (index, column) in (columns[table] ?? []).enumerated()
            where text.contains("'") && column.category == "S" && !column.holdsRole && column.defaultExpression == nil {
                let found = Self.literals(comparedWith: column, in: text)
                if found.count == 1 { columns[table]?[index].requiredByCheck = found.first }
            }
            // A flag a WITH CHECK with no OR asks to be true (`created_by = auth.uid() and
            // is_custom = true`), false by default: left to it, every persona's insert and
            // setup row was refused, and a catalogue's own custom entries were drafted
            // "none" (a workout app; round thirty-eight). Not under an OR, where it may be
            // one branch of several; not a role's.
            for (index, column) in (columns[table] ?? []).enumerated()
            where column.category == "B" && !column.holdsRole && !column.defaultsToTrue && column.writable {
                let asked = checks.contains { check in
                    check.range(of: #"\bOR\b"#, options: .regularExpression) == nil
                        && check.range(of: #"(?<!NOT )(?<!NOT \()"# + Self.reference(to: column) + #"(?:\s*=\s*true)?(?=\s*(?:\)|AND\b|$))"#,
                                       options: .regularExpression) != nil
                }
                if asked { columns[table]?[index].requiredTrueByCheck = true }
            }
        }
    }

    /// Sets `property` of each column `values` names (table -> column -> value).
    private mutating func setColumns<Value>(_ property: WritableKeyPath<Column, Value?>, to values: [String: [String: Value]]) {
        for (table, byColumn) in values {
            for (name, value) in byColumn {
                guard let index = columns[table]?.firstIndex(where: { $0.name == name }) else { continue }
                columns[table]?[index][keyPath: property] = value
            }
        }
    }

    /// Adds to `Column.pairChecks` the comparisons of two of a table's columns that its
    /// policies' WITH CHECK make them differ by (`(user_id <> target_id)`, as
    /// `pg_get_expr` spells it): a like of oneself refused by the policy, not by a check
    /// constraint, made every persona's drafted row name the persona twice, and each
    /// insert was refused ("insert: none"; a dating app's likes, round thirty-four).
    private mutating func addPairChecksOfInsertPolicies() {
        let name = #"(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)"#
        let pattern = "\\((" + name + #")\s+(?:<>|IS DISTINCT FROM)\s+("# + name + ")\\)"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return }
        for (table, checks) in withCheckExpressions {
            let text = checks.joined(separator: "\n")
            guard text.contains("<>") || text.uppercased().contains("DISTINCT") else { continue }
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let whole = Range(match.range, in: text), let left = Range(match.range(at: 1), in: text),
                      let right = Range(match.range(at: 2), in: text) else { continue }
                let names = [DraftOwnership.unquoted(String(text[left])), DraftOwnership.unquoted(String(text[right]))]
                let comparison = String(text[whole])
                // Two of the table's columns (not `auth.uid() <> x`).
                guard names[0] != names[1], let tableColumns = columns[table],
                      names.allSatisfy({ name in tableColumns.contains { $0.name == name } }) else { continue }
                for index in tableColumns.indices
                where names.contains(tableColumns[index].name) && !tableColumns[index].pairChecks.contains(comparison) {
                    columns[table]![index].pairChecks.append(comparison)
                }
            }
        }
    }

    /// A pattern for a reference to `column` of the expression's own table: its name,
    /// perhaps qualified by the table's, not part of a longer name or of another table's.
    private static func reference(to column: Column) -> String {
        #"(?<![.\w"])"# + DraftOwnership.columnPattern(column.name)
    }

    /// The texts `text` compares `column` with (`status = 'open'::text`), unquoted.
    private static func literals(comparedWith column: Column, in text: String) -> Set<String> {
        guard let regex = try? NSRegularExpression(pattern: reference(to: column) + #"\s*=\s*'((?:[^']|'')*)'"#) else { return [] }
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { text[$0].replacingOccurrences(of: "''", with: "'") }
        })
    }

    /// Sets `Column.showsRows` of the writable columns whose default does not show
    /// rows that a read policy of their table shows rows by, as `pg_get_expr` spells
    /// it: a boolean tested as true (`is_published`, `(visible = true)`, `(shared IS
    /// TRUE)`; not negated, `NOT is_deleted`, `= false`, `IS NOT TRUE`, which a default of
    /// false already shows), or a text or enum compared with one literal (`(status =
    /// 'published'::text)`; not a role's, `role = 'admin'` singles a user out; not a
    /// foreign key's, `bucket_id = 'avatars'` names the bucket).
    private mutating func markColumnsShowingRows() {
        for (table, expressions) in readExpressions {
            let text = expressions.joined(separator: "\n")
            for (index, column) in (columns[table] ?? []).enumerated() where column.writable {
                columns[table]?[index].showsRows = (column.category == "B"
                    ? Self.booleanShowing(column, in: text) : Self.literalShowing(column, in: text))
                    ?? Self.valueShowing(column, in: text)
            }
        }
    }

    /// true and false, for a boolean that `text` tests as true, whatever its default:
    /// `is_active boolean default true` read by `is_active = true` is a flag as much as
    /// `is_published default false` (every row kept its default, anon's read of active
    /// coupons was "all", and "sees every user's rows (user column created_by)" a made-up
    /// DANGER, while a plan saying so passed with every inactive row shown; a coaching
    /// institute, round forty). A call of a function named like it is not it (`user_id =
    /// auth.uid() or is_admin()`, where `is_admin()` reads `profiles.is_admin`: the shown
    /// row made ava an administrator).
    private static func booleanShowing(_ column: Column, in text: String) -> RowVisibility? {
        let name = #"(?<!NOT )"# + reference(to: column) + #"(?![\w"(])"#
        let negated = #"(?!\s*(?:=\s*false|<>|!=|IS\s+NOT\s+TRUE|IS\s+FALSE|IS\s+NOT\s+DISTINCT|IS\s+DISTINCT))"#
        return text.range(of: name + negated, options: .regularExpression) == nil ? nil : RowVisibility(shown: "true", hidden: "false")
    }

    /// Any value and NULL, for a column without a default that may be NULL that `text`
    /// tests with `IS NOT NULL` (`created_by = auth.uid() or code is not null`, `published_at
    /// is not null`): not a role's, not a foreign key's. Its sample gives it a value
    /// (`DraftOwnership.sample`): an insert with it tries the branch a real client would.
    private static func valueShowing(_ column: Column, in text: String) -> RowVisibility? {
        guard !column.required, column.defaultExpression == nil, !column.holdsRole, column.reference == nil else { return nil }
        let pattern = reference(to: column) + #"\s+IS\s+NOT\s+NULL"#
        return text.range(of: pattern, options: .regularExpression) == nil ? nil : RowVisibility(shown: nil, hidden: "null")
    }

    /// The one literal `text` compares a text or enum column with, and a value other
    /// than it: another the column lists (an enum's label, a check's value), else its
    /// default (when it is not that literal: `target_type default 'all'` read by
    /// `target_type = 'all'` hides rows too), else a made-up text; nil when a check the
    /// made-up text may break guards it.
    private static func literalShowing(_ column: Column, in text: String) -> RowVisibility? {
        guard ["S", "E"].contains(column.category), !column.holdsRole, column.reference == nil else { return nil }
        let found = literals(comparedWith: column, in: text)
        guard found.count == 1, let value = found.first else { return nil }
        let shown = DraftOwnership.literal(value)
        if let other = (column.labels + (column.allowedValues ?? [])).first(where: { $0 != value }) {
            return RowVisibility(shown: shown, hidden: DraftOwnership.literal(other))
        }
        if let fallback = column.defaultExpression, !fallback.hasPrefix(shown) { return RowVisibility(shown: shown, hidden: fallback) }
        guard column.category == "S", column.checkedText == nil else { return nil }
        let made = "Draft \(column.name)"
        return RowVisibility(shown: shown, hidden: DraftOwnership.literal(column.maxLength.map { String(made.prefix($0)) } ?? made))
    }

    /// Sets `Column.spentByChildTriggers` of the numbers with a constant default (`stock
    /// integer not null default 0`) that a trigger of a table referencing theirs compares
    /// with the new row's (`update items set stock = stock - new.quantity where id =
    /// new.item_id and stock >= new.quantity; if not found then raise`): left at 0, every
    /// setup purchase was refused, and a shop's purchases and carts were "cannot probe"
    /// (round thirty-eight). The setup gives such a column plenty.
    private mutating func markColumnsChildTriggersSpend() {
        for (child, bodies) in triggerBodies {
            let parents = Set((columns[child] ?? []).compactMap { $0.reference?.table }).subtracting([child])
            for parent in parents {
                let bare = DraftOwnership.bareName(of: parent)
                let naming = bodies.filter { $0.contains(bare) && $0.contains("raise") }
                guard !naming.isEmpty else { continue }
                for (index, column) in (columns[parent] ?? []).enumerated()
                where column.category == "N" && column.writable && column.reference == nil && !column.uniqueAlone
                    && DraftOwnership.isConstant(column.defaultExpression) {
                    let name = NSRegularExpression.escapedPattern(for: column.name.lowercased())
                    let compared = #"(?<![\w."])(?:\w+\.)?"# + name + #"\s*(?:>=|>|<=|<)\s*new\.\w+"#
                        + #"|new\.\w+\s*(?:>=|>|<=|<)\s*(?:\w+\.)?"# + name + #"(?![\w"])"#
                    if naming.contains(where: { $0.range(of: compared, options: .regularExpression) != nil }) {
                        columns[parent]?[index].spentByChildTriggers = true
                    }
                }
            }
        }
    }

    /// Sets `Column.comparedWithTokenEmail`: each text column named as the policies, or the
    /// helpers they call, compare a column with the token's e-mail. (Staff linked to their
    /// login by e-mail all got 'draft@example.com': no persona was staff of any venue,
    /// every venue, booking and waitlist cell was "none", and anon reading every venue's
    /// waitlist was no DANGER; a booking platform, round thirty-nine.)
    private mutating func markColumnsComparedWithTokenEmail() {
        let email = #"(?:\(*\s*auth\.jwt\(\)\s*->>\s*'email'(?:::text)?\s*\)*|auth\.email\(\))"#
        let column = #"(?:\w+\.)?"?(\w+)"?(?:::text)?\)*"#
        guard let before = try? Regex(column + #"\s*=\s*"# + email).ignoresCase(),
              let after = try? Regex(email + #"\s*=\s*\(*"# + column).ignoresCase() else { return }
        let texts = Array(policyExpressions.values.joined()) + Array(policyHelperBodies.values.joined())
        var names: Set<String> = []
        for text in texts where text.contains("email") {
            for match in text.matches(of: before) + text.matches(of: after) {
                if let name = match.output[1].substring { names.insert(name.lowercased()) }
            }
        }
        guard !names.isEmpty else { return }
        for (table, tableColumns) in columns {
            for index in tableColumns.indices where tableColumns[index].category == "S" && names.contains(tableColumns[index].name.lowercased()) {
                columns[table]?[index].comparedWithTokenEmail = true
            }
        }
    }

    /// Gives a text key the length of the shortest column referencing it (`countries.code
    /// text` behind `addresses.country_code varchar(2)`): the setup's 'Draft code 1' was
    /// too long for the reference (22001), and every address, the service role's too, was
    /// "cannot probe" (an HR app; round thirty-nine).
    private mutating func shortenKeysToTheirReferences() {
        for column in columns.values.joined() {
            guard let reference = column.reference, let length = column.maxLength,
                  let index = columns[reference.table]?.firstIndex(where: { $0.name == reference.column }),
                  columns[reference.table]?[index].category == "S",
                  (columns[reference.table]?[index].maxLength ?? .max) > length else { continue }
            columns[reference.table]?[index].maxLength = length
        }
    }

    /// Sets `Column.copiedToAUserByTrigger` from each table's `triggerBodies`: a uuid
    /// column without a foreign key a body names as `new.<column>`, in a body that
    /// inserts into a table with a column referencing auth.users.
    private mutating func markColumnsTriggersCopyToAUser() {
        let userTables = Set(columns.filter { $0.value.contains(where: \.referencesAUser) }.keys.map { table in
            String(table.split(separator: ".").last ?? Substring(table)).lowercased()
        })
        for (table, bodies) in triggerBodies {
            guard let columns = self.columns[table] else { continue }
            for body in bodies {
                let inserted = body.matches(of: /insert\s+into\s+(?:[a-z_][a-z0-9_]*\.)?"?([a-z_][a-z0-9_]*)"?/).map { String($0.1) }
                guard inserted.contains(where: userTables.contains) else { continue }
                // Not the row's own key (`new.id` is the team a membership names, and
                // `id = auth.uid()` in the sample broke the probes that move a row).
                for index in columns.indices where columns[index].typeName == "uuid" && columns[index].reference == nil
                    && !columns[index].uniqueAlone && columns[index].defaultExpression == nil
                    && body.contains("new.\(columns[index].name.lowercased())") {
                    self.columns[table]?[index].copiedToAUserByTrigger = true
                }
            }
        }
    }

    /// Reads the rows of `policySQL`'s queries, in order.
    private mutating func readPolicies(_ results: [[[String?]]]) {
        for var row in results[0] {
            for index in [1, 2] { row[index] = row[index].map(Self.subjectClaimsAsUserID) }
            let expressions = [row[1], row[2]].compactMap { $0 }
            policyExpressions[row[0] ?? "", default: []] += expressions
            if let check = row[2] { withCheckExpressions[row[0] ?? "", default: []].append(check) }
            if row[3] == "false" { rowlessExpressions.formUnion(expressions) }
            if row[4] == "true", let using = row[1] { readExpressions[row[0] ?? "", default: []].append(using) }
            if let using = row[1] { usingExpressions[row[0] ?? "", default: []].append(using) }
            if row[5] == "true" { writeExpressions[row[0] ?? "", default: []] += expressions }
            // An insert's check is its WITH CHECK (a policy for all without one: its USING).
            if ["a", "*"].contains(row[6]), let check = row[2] ?? row[1] { insertChecks[row[0] ?? "", default: []].append(check) }
            if ["w", "*"].contains(row[6]), let using = row[1] { updateUsings[row[0] ?? "", default: []].append(using) }
        }
        securityDefiner = Set(results[1].compactMap { $0[0] })
        for row in results[2] { viewSources[row[0] ?? "", default: []].append(row[1] ?? "") }
        userReadingCalls = results[3].compactMap { $0[0] }
        tablesRefusingOnConflict = Set(results[4].compactMap { $0[0] })
        tablesReadByOtherTablesPolicies = Set(results[5].compactMap { $0[0] })
        tablesSignedInMayInsert = Set(results[6].compactMap { $0[0] })
        // The project's own user-reading functions, by name (a trigger may call them unqualified).
        let calls = userReadingCalls.map { call in String(call.split(separator: ".").last ?? Substring(call)).lowercased() }
        for row in results[7] {
            if let table = row[0], let body = row[1] { triggerBodies[table, default: []].append(body.lowercased()) }
            if let table = row[0], row.count > 2, let helpers = row[2] { triggerHelperBodies[table, default: []].append(helpers.lowercased()) }
        }
        markColumnsTriggersCopyToAUser()
        markColumnsChildTriggersSpend()
        // Or that insert into a table whose NOT NULL column defaults to the signed-in user
        // (`members.user_id default auth.uid()`, the trigger giving only the org and the
        // role): made by the admin, the row broke the NOT NULL, and no organisation, nor
        // anything keyed by one, had rows (an HR app: 562 of 1048 probes; round thirty-nine).
        let userDefaulted = columns.filter { $0.value.contains { $0.defaultsToSignedInUser && $0.notNull } }.keys
        tablesWithUserReadingTriggers = Set(triggerBodies.filter { _, bodies in
            bodies.contains { body in
                body.range(of: #"auth\.(uid|jwt|role|email)\s*\(|request\.jwt\.claim"#, options: .regularExpression) != nil
                    || calls.contains { body.contains($0) }
                    || userDefaulted.contains { DraftOwnership.inserts(into: $0, in: body) }
            }
        }.keys)
        let signUpBodies = (results[8].first?.first ?? nil) ?? ""
        signUpTriggerBodies = signUpBodies.lowercased()
        signUpMetadataKeys = SignUpTriggers.metadataKeys(in: signUpBodies)
        let updateBodies = ((results[8].first.map { $0.count > 1 ? $0[1] : nil }) ?? nil) ?? ""
        userUpdateTriggerBodies = updateBodies.lowercased()
        userUpdateMetadataKeys = SignUpTriggers.metadataKeys(in: updateBodies)
        tablesSignedInMaySelect = Set(results[9].compactMap { $0[0] })
        for row in results[10] {
            guard let table = row[0], let body = row[1]?.lowercased() else { continue }
            policyHelperBodies[table, default: []].append(body)
            if row[2] == "true" { readHelperBodies[table, default: []].append(body) }
        }
        for row in results[11] {
            guard let name = row[0], let body = row[1]?.lowercased() else { continue }
            guardingFunctionBodies.append((name, body, body.contains("raise")))
        }
    }
}
