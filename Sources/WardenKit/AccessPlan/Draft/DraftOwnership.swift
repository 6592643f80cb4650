import Foundation

/// Owner rules and insert samples for a drafted relation, from the catalog.
///
/// Owner rule: a policy comparing a column with `auth.uid()` (written
/// `auth.uid() = c`, `c = auth.uid()` or `(select auth.uid()) = c`) gives
/// `c = auth.uid()`; failing that, a policy expression that calls `auth.uid()` at
/// all is taken whole. Sample: every column an insert must give, the owner column,
/// and a value for each from its foreign key (`auth.users` -> `auth.uid()`), enum,
/// or type. `storage.objects` also gets a bucket its policies name and a name in the
/// persona's folder (`StoragePolicies`).
struct DraftOwnership {
    let catalog: DraftCatalog
    /// The bucket `storage.objects`' rows and insert probes go in: one its policies name
    /// (`StoragePolicies.objectBuckets`), else nil (then the first bucket there is).
    var storageBucket: String? {
        didSet {
            storageFolderPrefix = Self.foldersBeforeTheUsers(of: storageBucket, in: catalog)
            storageFileExtension = Self.fileExtension(of: storageBucket, in: catalog)
        }
    }
    /// The extension of the persona's file (`storageObjectName`): the first the bucket's
    /// policies compare `storage.extension(name)` with, else `txt`.
    private(set) var storageFileExtension = "txt"
    /// The folders before the user's own in the path of the persona's file
    /// (`storageObjectName`): 'draft/' where the bucket's policies read the user's id in
    /// the second folder, `(storage.foldername(name))[2]`; else nothing.
    private(set) var storageFolderPrefix = ""
    /// Table -> owner rules found to fail on the table's rows (a helper's ambiguous
    /// column, 42702): `ownerRule(of:)` gives another of its policies' instead.
    var failingOwnerRules: [String: Set<String>] = [:]

    /// An SQL identifier, bare or double-quoted, as a pattern's capture group.
    static let identifier = #"("[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)"#

    /// The name an identifier `identifier` matched spells: its quotes taken off and
    /// doubled quotes undoubled.
    static func unquoted(_ identifier: String) -> String {
        guard identifier.hasPrefix("\"") else { return identifier }
        return String(identifier.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// A pattern for column `name` as pg_get_expr writes it in a policy: spelled as SQL
    /// needs it, perhaps after its table's name (`notes.account_id`).
    static func columnPattern(_ name: String) -> String {
        #"(?:\w+\.)?"# + NSRegularExpression.escapedPattern(for: sqlName(name))
    }
    private static let patterns: [NSRegularExpression] = [
        #"auth\.uid\(\)(?:\s+AS\s+uid\s*\))?\s*=\s*(?<![.\w"])"# + identifier + #"(?![.\w(])"#,
        #"(?<![.\w"])"# + identifier + #"\s*=\s*(?:\(\s*SELECT\s+)?auth\.uid\(\)"#,
    ].compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// The owning column, when a policy compares one with auth.uid(); through casts too
    /// (`auth.uid()::text = id::text`) when the column is a uuid, so that `column =
    /// auth.uid()` still compares like with like (a text `user_id` keeps the whole rule).
    /// Read from `DraftCatalog.ownerColumns`, found once per table by `findOwnerColumn`.
    func ownerColumn(of table: String) -> String? {
        catalog.ownerColumns[table]
    }

    /// `ownerColumn` of `table`, found in `catalog`'s policies: for `DraftCatalog.read`,
    /// once per table (the draft asks tens of times per table; matching the policies
    /// each time was a third of the client's time on a 345-table project).
    static func findOwnerColumn(of table: String, in catalog: DraftCatalog) -> String? {
        DraftOwnership(catalog: catalog).foundOwnerColumn(of: table)
    }

    private func foundOwnerColumn(of table: String) -> String? {
        let columns = catalog.columns[table] ?? []
        let expressions = catalog.policyExpressions[table] ?? []
        let uuids = Set(columns.filter { $0.typeName == "uuid" }.map(\.name))
        return Self.firstCompared(in: expressions, among: Set(columns.map(\.name)))
            ?? Self.firstCompared(in: expressions.map(Self.withoutCasts), among: uuids)
    }

    /// The column naming a row's owner: `ownerColumn`, else a text column the policies
    /// compare with the user's id as text (`user_id = auth.uid()::text`; Storage's
    /// `owner_id = (select auth.uid()::text)`, as Supabase's docs write it), whose rows of
    /// the persona's hold `auth.uid()::text`; `cast` makes a user's id its value (`""`, or
    /// `"::text"`). (A text owner's rows held `'Draft user_id'`, no one's, and the personas'
    /// own access was drafted `none`.) The owner rule stays the policy's whole for a text one.
    func owningColumn(of table: String) -> (name: String, cast: String)? {
        if let owner = ownerColumn(of: table) { return (owner, "") }
        return comparedTextColumn(of: table).map { ($0, "::text") }
    }

    /// The first text column of `table` its policies compare with auth.uid() (cast).
    private func comparedTextColumn(of table: String) -> String? {
        let texts = Set((catalog.columns[table] ?? []).filter { $0.category == "S" }.map(\.name))
        return Self.firstCompared(in: (catalog.policyExpressions[table] ?? []).map(Self.withoutCasts), among: texts)
    }

    /// The first of `names` an expression compares with auth.uid(), bare, either way
    /// round (`sender = auth.uid()`, `( SELECT auth.uid() AS uid) = sender`).
    static func firstCompared(in expressions: [String], among names: Set<String>) -> String? {
        for expression in expressions {
            let range = NSRange(expression.startIndex..., in: expression)
            for pattern in Self.patterns {
                for match in pattern.matches(in: expression, range: range) {
                    guard let found = Range(match.range(at: 1), in: expression) else { continue }
                    let name = Self.unquoted(String(expression[found]))
                    if names.contains(name) { return name }
                }
            }
        }
        return nil
    }

    private static let cast = try? NSRegularExpression(
        pattern: #"::\s*(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_]*)(?:\s+varying)?(?:\[\])?"#)
    private static let wrapped = try? NSRegularExpression(
        pattern: #"(?<![\w"])\(\s*(auth\.uid\(\)|\(\s*SELECT\s+auth\.uid\(\)\s+AS\s+uid\s*\)|"# + identifier + #")\s*\)"#,
        options: [.caseInsensitive])

    /// A policy expression with its casts taken out and the parentheses pg_get_expr puts
    /// around a cast operand removed: `((auth.uid())::text = (id)::text)` reads
    /// `(auth.uid() = id)`, which the owner patterns match.
    static func withoutCasts(_ expression: String) -> String {
        guard let cast, let wrapped else { return expression }
        var text = cast.stringByReplacingMatches(in: expression, range: NSRange(expression.startIndex..., in: expression), withTemplate: "")
        for _ in 0..<4 {
            let next = wrapped.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1")
            if next == text { break }
            text = next
        }
        return text
    }

    /// The foreign-key columns of `table` that its owner rule reads, by name: a child row
    /// owned through its parent (`analysis_id in (select id from analyses where user_id =
    /// auth.uid())`) belongs to no one without one, even when the column may be null.
    func ownerRuleReferences(of table: String) -> Set<String> {
        guard ownerColumn(of: table) == nil, var rule = ownerRule(of: table) else { return [] }
        // Inside a subquery, pg_get_expr names the table's own columns with the table's
        // name (`a.id = notes.account_id`): read without it.
        let bareName = String(table.split(separator: ".").last ?? Substring(table))
        rule = rule.replacingOccurrences(
            of: #"(?<![.\w"])"# + NSRegularExpression.escapedPattern(for: Self.sqlName(bareName)) + #"\."#,
            with: "", options: .regularExpression)
        let names = (catalog.columns[table] ?? []).filter { $0.reference != nil }.map(\.name)
        return Set(names.filter { name in
            let spelled = NSRegularExpression.escapedPattern(for: Self.sqlName(name))
            return rule.range(of: #"(?<![.\w"])"# + spelled + #"(?![\w"(])"#, options: .regularExpression) != nil
        })
    }

    /// The owner rule for a table: `column = auth.uid()`, a policy expression using
    /// auth.uid() (its ownership branch when it ORs a public one: `OwnerRuleBranch`), or
    /// one that passes the row's columns to a function that reads the signed-in user
    /// (`public.is_board_owner(board_id)`: the helper Supabase's RLS guide recommends),
    /// which is then true of the persona's own rows.
    func ownerRule(of table: String) -> String? {
        primaryOwnerRule(of: table) ?? ownedThroughParentBesideAUserGate(table)
    }

    /// Whether `expression` names `column` as a word, bare, qualified (`tasks.team_id`)
    /// or quoted.
    static func names(column: String, in expression: String) -> Bool {
        let unqualified = expression.replacingOccurrences(of: ".", with: " ").replacingOccurrences(of: "\"", with: " ")
        return RelationProber.namesBareColumn(column, in: unqualified)
    }

    /// The rows of `table` shared with every user, as SQL (`team_id is null`): a read
    /// policy ORs a NULL test of a column its owner rule reads (`(team_id IS NULL) OR
    /// public.in_team(team_id)`, `owner_id IS NULL OR owner_id = auth.uid()`): templates or
    /// categories every user sees, which are no one's own and no other user's either
    /// (`RelationPlan.shared`). nil without such a test, or without an owner rule.
    func sharedRule(of table: String) -> String? {
        let columns = sharedColumns(of: table)
        return columns.isEmpty ? nil : columns.map { "\(Self.sqlName($0)) is null" }.joined(separator: " or ")
    }

    /// The columns `sharedRule` tests for NULL, in the order the policies name them.
    func sharedColumns(of table: String) -> [String] {
        guard let rule = ownerRule(of: table) else { return [] }
        let names = Set((catalog.columns[table] ?? []).map(\.name))
        var columns: [String] = []
        // Read policies only: a NULL test in an insert's WITH CHECK (`user_id is null or
        // auth.uid() = user_id`: a guest's booking) shares the row with no one.
        for expression in catalog.readExpressions[table] ?? [] {
            for column in OwnerRuleBranch.nullTestedColumns(in: Self.oneLine(expression))
            where names.contains(column) && !columns.contains(column) && Self.names(column: column, in: rule) {
                columns.append(column)
            }
        }
        return columns
    }

    /// The owner rule of a table whose policy asks who the user is but reads no column of
    /// the row (`exists (select 1 from members m where m.user_id = auth.uid() and
    /// m.team_id = m.team_id)`: the team condition compares a column with itself, so any
    /// member of any team reads every team's rows), through its key to a parent that has
    /// an owner rule of its own (`team_id -> teams`): the row is the persona's where its
    /// parent is. Without one, the table had no owner, each persona read the other's
    /// team's rows, and no DANGER said so (a developer-metrics app's repositories).
    /// Not where the gate asks for a row that is itself a privilege (`grantsByItsRows`,
    /// `promotedByItsTrigger`): no persona has one, and reads nothing there.
    private func ownedThroughParentBesideAUserGate(_ table: String) -> String? {
        let gates = (catalog.policyExpressions[table] ?? []).filter {
            catalog.rowlessExpressions.contains($0) && Self.readsWhoTheUserIs($0)
        }
        let named = { (expression: String) in
            let line = Self.oneLine(expression) + " "
            return Set(catalog.columns.keys.filter { line.contains("FROM \($0) ") || line.contains("FROM \($0))") })
        }
        let asked = gates.reduce(into: Set<String>()) { $0.formUnion(named($1)) }
        // (A privilege or a promotion only: a role row's check reads the table's sample,
        // whose owner rule may lead back here.)
        guard !gates.isEmpty, !asked.contains(where: { grantsByItsRows($0) || promotedByItsTrigger($0) != nil }) else { return nil }
        // The gate asks about the table the parent's rule reads (`members`, for `teams`'
        // `exists (select 1 from members ...)`): an admin check beside a public read
        // (`Only admins can insert boards`, `is_active`) says nothing of whose the row is.
        for column in catalog.columns[table] ?? [] {
            guard let reference = column.reference, reference.table != "auth.users", reference.table != table,
                  let rule = primaryOwnerRule(of: reference.table), !named(rule).isDisjoint(with: asked) else { continue }
            return "\(Self.sqlName(column.name)) in (select \(Self.sqlName(reference.column)) from \(reference.table) where \(rule))"
        }
        return nil
    }

    /// The owner rule its own policies (or columns) give `table`; see `ownerRule(of:)`.
    private func primaryOwnerRule(of table: String) -> String? {
        let failing = failingOwnerRules[table] ?? []
        return candidateOwnerRule(of: table, besides: failing).flatMap { failing.contains($0) ? nil : $0 }
    }

    /// `primaryOwnerRule`, the expressions' rules in `failing` passed over.
    private func candidateOwnerRule(of table: String, besides failing: Set<String>) -> String? {
        if let column = ownerColumn(of: table) { return "\(Self.sqlName(column)) = auth.uid()" }
        if let owner = ownerThroughUserFunction(of: table) {
            return owner.ofSet ? "\(Self.sqlName(owner.column)) in (select \(owner.call))" : "\(Self.sqlName(owner.column)) = \(owner.call)"
        }
        // An expression that reads no column of the table says who the user is, not
        // whose the row is (an admin check): taken as the owner rule, no row was anyone's.
        var expressions = (catalog.policyExpressions[table] ?? []).filter { !catalog.rowlessExpressions.contains($0) }
        // Storage: a rule naming its bucket (`bucket_id = 'logos'`) before one matching a
        // pattern of buckets (`bucket_id like 'team-%'`), whatever the policies' names:
        // "a team update" sorted first, its rule held for no file in a bucket, and ava's
        // own logo counted as another user's (a made-up DANGER).
        // And of those, a read policy's first (`for all using (bucket_id = 'docs' and
        // <own folder>)`): a bucket whose owners may upload but not list their files
        // (avatars, served by public URLs) sorted first, and users' reading their own
        // files in every other bucket was stated nowhere.
        if table == "storage.objects" {
            let namesABucket = { (expression: String) in
                expression.range(of: #"bucket_id\s*=\s*'"#, options: .regularExpression) != nil
            }
            let reads = Set(catalog.readExpressions[table] ?? [])
            expressions = expressions.filter { namesABucket($0) && reads.contains($0) }
                + expressions.filter { namesABucket($0) && !reads.contains($0) } + expressions.filter { !namesABucket($0) }
        } else {
            // A table's: a rule that governs writes before one that only lets rows be read,
            // whatever the policies' names: a buyers' read of archived items they ordered
            // sorted before the sellers' `for all` rule, each seller's items were "other
            // users' rows", and a made-up DANGER said one seller may update another's.
            let writes = Set(catalog.writeExpressions[table] ?? [])
            expressions = expressions.filter { writes.contains($0) } + expressions.filter { !writes.contains($0) }
        }
        // A rule that only tells the user's role (`bucket_id = 'feedback' and
        // has_role(auth.uid(), 'admin')`) after one relating the user to the row: the
        // admins' read of feedback screenshots sorted first by its name, and no user's own
        // upload could be probed (an AI app; round thirty-eight).
        expressions = expressions.filter { !Self.onlyTellsTheUsersRole($0) } + expressions.filter(Self.onlyTellsTheUsersRole)
        // A rule for the users who hold a role (`has_role(auth.uid(), 'branch_admin') and
        // branch_id in (...)`) says which rows those users manage, not whose a row is: the
        // personas, ordinary sign-ups, held it for no row, 18 cells were "cannot probe"
        // with advice no one could follow, and a course catalogue every visitor reads was
        // "every user's rows" (a coaching institute; round forty).
        expressions.removeAll(where: Self.gatedByARole)
        // The ownership branch must read a column of the row: in `status = 'published' or
        // has_role(auth.uid(), 'admin')`, the branch asking who the user is is an admin
        // check, whose row no one owns (taken as the owner rule, a news app's drafted plan
        // failed its own run: 24 of 26 probes).
        // (The whole row, `can_edit(auth.uid(), docs.*)`, is read too.)
        let columns = (catalog.columns[table] ?? []).map(\.name)
        let wholeRow = Self.bareName(of: table) + ".*"
        let owning = expressions.lazy.filter { Self.readsWhoTheUserIs($0) }
            .compactMap { OwnerRuleBranch.ownership(of: Self.oneLine($0)) }
            .first { rule in
                !failing.contains(rule) && (rule.contains(wholeRow) || columns.contains { Self.names(column: $0, in: rule) })
            }
        if let owning { return owning }
        guard let rule = expressions.first(where: { passesRowToUserFunction($0, table: table) }) else {
            // Of those, the one with the fewest such calls: `... and auth_role() in
            // ('manager')` beside it asks who may write, not whose the row is.
            return ownedThroughParentsPolicy(table, expressions)
                ?? expressions.filter { selectsRowsThroughUserFunction($0) }
                    .min { userReadingCallCount($0) < userReadingCallCount($1) }.map(Self.oneLine)
        }
        return OwnerRuleBranch.ownership(of: Self.oneLine(rule)) ?? Self.oneLine(rule)
    }

    /// The owner rule of a table whose policy checks only that the row's parent is one
    /// the user may see, through the parent's own row-level security (`exists (select 1
    /// from public.projects p where p.id = project_id)`, no auth.uid()): the row is the
    /// persona's where its parent is (`project_id in (select p1.id from public.projects
    /// p1 where p1.owner_id = auth.uid())`). Without it, ava's settings row was "every
    /// row" (a made-up DANGER) and ben's insert "every row" too.
    private func ownedThroughParentsPolicy(_ table: String, _ expressions: [String]) -> String? {
        let parents = Set((catalog.columns[table] ?? []).compactMap { $0.reference?.table }.filter { $0 != table && $0 != "auth.users" })
        let named = parents.filter { parent in expressions.contains { $0.contains("FROM \(parent) ") } }
        guard !named.isEmpty,
              let condition = ownedThroughKeys(table, alias: "pgwarden_row", depth: 1, preferring: named, throughHelpers: true),
              condition.hasPrefix("pgwarden_row.") else { return nil }
        return String(condition.dropFirst("pgwarden_row.".count))
    }

    /// A column a policy compares with a call, without arguments, of a function that
    /// reads the signed-in user, and that call (`DraftCatalog.userCallOwners`).
    func ownerThroughUserFunction(of table: String) -> (column: String, call: String, ofSet: Bool)? {
        catalog.userCallOwners[table]
    }

    /// Whether the expression reads auth.uid() other than to ask whether there is a
    /// signed-in user at all (`auth.uid() is not null and listed`: every signed-in user
    /// sees the listed rows; taken as an owner rule, no row was anyone's).
    /// Whether every `auth.uid()` of `expression` is passed to a function beside
    /// constants only (`public.has_role(auth.uid(), 'admin'::text)`): the rule asks what
    /// the user is, not whose the row is.
    static func onlyTellsTheUsersRole(_ expression: String) -> Bool {
        let uid = #"(?:auth\.uid\(\)|\(\s*SELECT\s+auth\.uid\(\)\s+AS\s+uid\s*\))"#
        // A cast may name the type's schema (`'manager'::public.app_role`).
        let constant = #"'(?:[^']|'')*'(?:::[\w. ]+)?"#
        let call = #"[\w.]+\(\s*"# + uid + #"\s*(?:,\s*"# + constant + #"\s*)*\)"#
        guard expression.contains("auth.uid()") else { return false }
        return !expression.replacingOccurrences(of: call, with: "", options: [.regularExpression, .caseInsensitive])
            .contains("auth.uid()")
    }

    /// Whether `expression` ANDs a check that only tells the user's role
    /// (`onlyTellsTheUsersRole`) with a condition on the row.
    static func gatedByARole(_ expression: String) -> Bool {
        let conjuncts = OwnerRuleBranch.topLevelConjuncts(of: oneLine(expression))
        return conjuncts.count > 1 && conjuncts.contains(where: onlyTellsTheUsersRole)
    }

    static func readsWhoTheUserIs(_ expression: String) -> Bool {
        expression.replacingOccurrences(
            of: #"(auth\.uid\(\)|\(\s*SELECT\s+auth\.uid\(\)\s+AS\s+uid\s*\))\s+IS\s+NOT\s+NULL"#,
            with: "", options: [.regularExpression, .caseInsensitive]
        ).contains("auth.uid()") || comparesTheTokensEmail(expression)
    }

    /// Whether a policy expression compares something with the signed-in user's e-mail
    /// (`s.email = (auth.jwt() ->> 'email'::text)`, `auth.email()`): staff linked to
    /// their login by e-mail are the rows' users as much as a user id would make them.
    static func comparesTheTokensEmail(_ expression: String) -> Bool {
        expression.contains("email") && expression.range(
            of: #"=\s*\(*\s*auth\.jwt\(\)\s*->>\s*'email'|auth\.email\(\)"#, options: .regularExpression) != nil
    }

    /// Whether the expression picks the row's key out of a subquery that calls a function
    /// reading the signed-in user (`order_id in (select id from public.orders where
    /// org_id = public.my_org())`: an order's events are its organisation's). The
    /// expression reads a column of the row (`rowlessExpressions` are left out before),
    /// so it says whose the row is: without it the table had no owner rule, the setup
    /// one row, in ava's organisation, and "may insert, update, delete every row" was
    /// made up for ava (a restaurant app's orders, their items and their history).
    /// A call merely wrapped to be run once (`(select public.is_manager())`, Supabase's
    /// advice for policies, printed `( SELECT public.is_manager() AS is_manager)`) is no
    /// subquery picking rows: `(select is_manager()) and kind <> 'private'` is a gate
    /// beside a filter, and taken as an owner rule it made a catalogue no user owns
    /// "every user's rows" for anon (three made-up DANGERs; round thirty-seven).
    private func selectsRowsThroughUserFunction(_ expression: String) -> Bool {
        let unwrapped = expression.replacingOccurrences(
            of: #"\(\s*SELECT\s+[\w."]+\([^()]*\)\s+AS\s+[\w"]+\s*\)"#, with: "", options: [.regularExpression, .caseInsensitive])
        return unwrapped.range(of: "SELECT ", options: .caseInsensitive) != nil
            && catalog.userReadingCalls.contains { expression.contains($0) }
    }

    /// How many calls of user-reading functions `expression` makes.
    private func userReadingCallCount(_ expression: String) -> Int {
        catalog.userReadingCalls.reduce(0) { $0 + expression.components(separatedBy: $1).count - 1 }
    }

    /// `expression` on one line (pg_get_expr breaks long ones over indented lines).
    private static func oneLine(_ expression: String) -> String {
        expression.replacingOccurrences(of: "\n *", with: " ", options: .regularExpression)
    }

    /// The owner rule of a table whose policy passes its row's columns to a helper that
    /// reads the user, read from the policies alone (no parent's rules: this serves
    /// `ownedThroughKeys`, which follows parents itself), its columns unqualified
    /// (`recipes.team_id` reads `team_id`); nil when no policy does.
    private func ruleThroughUserFunction(of table: String) -> String? {
        // Not one the draft found failing on the table's rows (a school's helper reading
        // a materialized view never refreshed, 55000): it failed every sample through it.
        let failing = failingOwnerRules[table] ?? []
        let rules = (catalog.policyExpressions[table] ?? []).filter { !catalog.rowlessExpressions.contains($0) }
            .filter { passesRowToUserFunction($0, table: table) }
            .map { OwnerRuleBranch.ownership(of: Self.oneLine($0)) ?? Self.oneLine($0) }
        guard let rule = rules.first(where: { !failing.contains($0) }) else { return nil }
        return rule.replacingOccurrences(
            of: #"(?<![.\w"])"# + NSRegularExpression.escapedPattern(for: Self.sqlName(Self.bareName(of: table))) + #"\."#,
            with: "", options: .regularExpression)
    }

    /// Whether the expression calls a function that reads the signed-in user with a
    /// column of the row among its arguments (a call without one, `is_admin()` or
    /// `can('docs.manage')`, says nothing about which rows).
    private func passesRowToUserFunction(_ expression: String, table: String) -> Bool {
        let columns = Set((catalog.columns[table] ?? []).map(\.name))
        return catalog.userReadingCalls.contains { call in
            let spelled = NSRegularExpression.escapedPattern(for: call)
            guard let regex = try? NSRegularExpression(pattern: #"(?<![.\w"])"# + spelled + #"(?!\))"#) else { return false }
            // A call whose arguments are all constants (`public.can('docs.manage')`) asks
            // who the user is, not whose the row is: one of its arguments must be a column.
            return regex.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)).contains { match in
                guard let end = Range(match.range, in: expression)?.upperBound else { return false }
                return Self.words(ofArguments: expression[end...]).contains { columns.contains($0) }
            }
        }
    }

    /// The identifiers in a call's arguments (`text` starts after the call's opening
    /// parenthesis, up to the one that closes it), outside quoted literals.
    static func words(ofArguments text: Substring) -> Set<String> {
        var depth = 1, inLiteral = false, words: Set<String> = [], word = ""
        for character in text {
            if inLiteral {
                if character == "'" { inLiteral = false }
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if !word.isEmpty, word.first?.isNumber == false { words.insert(word) }
            word = ""
            if character == "'" { inLiteral = true } else if character == "(" { depth += 1 } else if character == ")" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        return words
    }

    /// Column -> SQL value for insert probes (`inSetup`: for the admin's setup rows,
    /// where a referenced row is picked in a fixed order: `value(for:inSetup:)`).
    func sample(of table: String, inSetup: Bool = false) -> [(column: String, expression: String)] {
        let columns = catalog.columns[table] ?? []
        let owner = ownerColumn(of: table)
        let textOwner = owner == nil ? comparedTextColumn(of: table) : nil
        if table == "storage.objects" {
            return storageObjectSample(columns: columns, owner: owner, textOwner: textOwner, inSetup: inSetup)
        }
        let ruled = ownerRuleReferences(of: table)
        // A user column of a table with an owner rule, even one that may be null: a
        // membership row without its user (`members.user_id`) makes no one a member.
        let hasRule = owner == nil && ownerRule(of: table) != nil
        // In the setup, a key another table's rules read through (`memberships.user_id`,
        // `organizations_subscriptions.subscription_id`), even one that may be null; and
        // the group a user's own row names where a helper reads it (`profiles.company_id`
        // behind `is_company_member(id)`, which no policy names: left NULL, no persona
        // belonged to a company, and every company's cell was "cannot probe").
        let groupColumns = inSetup ? userRowsGroupColumns(of: table) : []
        // A membership's user column names the persona, with or without a foreign key;
        // in the setup its group too, even one that may be null (`participants
        // .conversation_id`, read by a helper the policies call): left NULL, no persona
        // was in any conversation, and every message cell held vacuously.
        let membership = membershipColumns(of: table)
        let membershipUser = membership?.userColumn
        let membershipGroup = inSetup ? membership?.rowColumn : nil
        // In the setup, a key the table's own policies pass to a function, even one that
        // may be null (`messages.conversation_id` behind `in_conversation(conversation_id)`): left
        // NULL, the personas' own messages were in no conversation and hidden from them.
        // (Passed to a function, as a group's key is to a membership helper; a key a
        // policy compares itself, `b.id = booking_id`, is left as the sample has it.)
        let policyKeys = inSetup ? Set(columns.filter { column in
            // (The plain search first: a regular expression is built at each call.)
            column.reference != nil && (catalog.policyExpressions[table] ?? []).contains {
                $0.contains(column.name)
                    && $0.range(of: #"\w\(\s*(?:\w+\.)?"# + NSRegularExpression.escapedPattern(for: column.name) + #"\s*[,)]"#,
                                options: .regularExpression) != nil
            }
        }.map(\.name)) : []
        var chosen = columns.filter { column in
            column.required || column.name == owner || column.name == textOwner || ruled.contains(column.name)
                || (column.writable && column.name == membershipGroup)
                || (column.writable && policyKeys.contains(column.name))
                || (hasRule && column.writable && column.referencesAUser)
                || (inSetup && column.linksRowsForOtherPolicies)
                || groupColumns.contains(column.name)
                || (hasRule && column.writable && column.defaultsToSignedInUser && (column.category == "A" || column.notNull))
                || (column.writable && (column.requiredByCheck != nil || column.requiredTrueByCheck || column.defaultBreaksItsKey))
                || (column.writable && column.copiedToAUserByTrigger)
                // The other user of a two-user row (`check (user1_id <> user2_id)`), even
                // one that may be null: a message names its recipient, and a policy may
                // want one (`with check (user2_id is not null)`), so a row without it
                // showed a persona's own insert refused.
                || (column.writable && standIn(for: column, in: table) != nil)
                // A value where a read policy shows rows by any (`code is not null`): an
                // insert without it missed the branch a client writes through.
                || (column.writable && column.showsRows.map { $0.shown == nil } == true)
                // The persona's role in the group it made, even one with a default
                // (`role text default 'member'`): as a 'member' its group had no owner,
                // which a deferred trigger refused at commit.
                || (inSetup && column.writable && ownGroupsOwnerRole(table, column) != nil)
                // A unique column whose default is one constant (`code text unique default
                // 'm'`): every persona's row took it, the second collided, and the whole
                // entry was lost. Each persona's row gets its own value.
                || (inSetup && column.writable && column.uniqueAlone && Self.isConstant(column.defaultExpression))
                // A number a child's trigger spends (`stock`), plenty of it in the setup.
                || (inSetup && column.spentByChildTriggers)
                // An e-mail the policies compare with the signed-in user's: the persona's.
                || (column.writable && column.comparedWithTokenEmail)
                || (column.writable && column.askedNotNullByAPairCheck)
        }
        // No column an insert must give: the first it may give (an identity column that is
        // GENERATED ALWAYS refuses a value, so a sample naming it proves nothing).
        if chosen.isEmpty, let first = columns.first(where: { $0.writable && value(for: $0) != nil }) { chosen = [first] }
        // A column the rules compare with a user-reading call: that call as the persona;
        // in the admin's setup, the persona's row its foreign key points at. Not a key
        // GENERATED ALWAYS (`orgs.id in (select my_orgs())`): every insert naming it was
        // refused (428C9), the setup's too, and even the service role's cells said `····`.
        let throughFunction = owner == nil ? ownerThroughUserFunction(of: table) : nil
        if let throughFunction, !chosen.contains(where: { $0.name == throughFunction.column }),
           let column = columns.first(where: { $0.name == throughFunction.column }), column.writable {
            chosen.append(column)
        }
        return DraftPathCheck.applied(to: chosen.map { column in
            if let throughFunction, column.name == throughFunction.column, !inSetup {
                // One of the user's set (a value, as an insert needs).
                return (column.name, throughFunction.ofSet ? "(select \(throughFunction.call) limit 1)" : throughFunction.call)
            }
            if column.name == owner || column.name == membershipUser { return (column.name, "auth.uid()") }
            if column.name == textOwner { return (column.name, "auth.uid()::text") }
            if column.comparedWithTokenEmail { return (column.name, "auth.email()") }
            if column.copiedToAUserByTrigger { return (column.name, "auth.uid()") }
            // The user a rule in a helper finds by it (`can_edit(auth.uid(), docs.*)`
            // reading `owner_id default auth.uid()`): another user's row names that user.
            if hasRule, column.defaultsToSignedInUser, column.notNull, column.category != "A" { return (column.name, "auth.uid()") }
            if inSetup, let role = ownGroupsOwnerRole(table, column) { return (column.name, Self.literal(role)) }
            if inSetup, column.spentByChildTriggers { return (column.name, "1000") }
            return (column.name, preferringRequiredState(Self.signedInUserArray(column) ?? standIn(for: column, in: table)?.sqlValue
                ?? value(for: column, inSetup: inSetup) ?? "null", of: column, in: table))
        }, columns: columns)
    }

    /// The user who is no persona that `column` names in every persona's row
    /// (`DraftStandInUser`): a user column beside the one naming the persona (the owner
    /// column, else the table's first user column) that a check keeps from naming the
    /// same user (`check (sender <> recipient)`). A user column references `auth.users`,
    /// or a table keyed by its users (`follows.followee_id -> profiles.id -> auth.users`).
    func standIn(for column: DraftCatalog.Column, in table: String) -> DraftStandInUser? {
        guard !column.pairChecks.isEmpty, userKeyedTable(of: column) != nil,
              let persona = ownerColumn(of: table) ?? catalog.userColumns[table], persona != column.name
        else { return nil }
        return DraftStandInUser.needed(by: column, beside: persona)
    }

    /// The table whose user `column` names: `auth.users` for its foreign key there, or a
    /// table whose referenced column is itself a foreign key to `auth.users (id)`
    /// (`profiles.id`); nil for any other column.
    func userKeyedTable(of column: DraftCatalog.Column) -> String? {
        if column.referencesAUser { return "auth.users" }
        guard let reference = column.reference, reference.table != "auth.users" else { return nil }
        let target = catalog.columns[reference.table]?.first { $0.name == reference.column }
        return target?.referencesAUser == true ? reference.table : nil
    }

    /// The stand-ins the tables' rows name: the setup entry signing them up, first in the
    /// setup (nil: none needed), and, for each table keyed by its users that they are
    /// named through (`profiles`), their emails, so that its setup gives them a row too.
    func standIns(tables: [String], metadataOf persona: Persona?) -> (setup: String?, emailsByTable: [String: [String]]) {
        var users: Set<DraftStandInUser> = []
        var naming: [String] = []
        var emailsByTable: [String: Set<String>] = [:]
        for table in tables where heldByThePrivilegeHolder(table) || standInShownRowColumn(of: table) != nil {
            users.insert(.privilegeHolder)
            naming.append(table)
        }
        for table in tables {
            for column in catalog.columns[table] ?? [] {
                guard let user = standIn(for: column, in: table) else { continue }
                users.insert(user)
                if naming.last != table { naming.append(table) }
                if let keyed = userKeyedTable(of: column), keyed != "auth.users" {
                    emailsByTable[keyed, default: []].insert(user.email)
                }
            }
        }
        guard !users.isEmpty else { return (nil, [:]) }
        return (DraftStandInUser.setupEntry(Array(users), metadataOf: persona, tables: naming),
                emailsByTable.mapValues { $0.sorted() })
    }

    /// `array[auth.uid()]` for an array column whose default holds the signed-in user
    /// (`member_ids uuid[] default array[auth.uid()]`, read by `auth.uid() = any
    /// (member_ids)`): the persona's own row names the persona, another user's the other
    /// user (left to its default, "another user's row" was the persona's own, a made-up
    /// DANGER; and the setup wrote a uuid into the array, 42804, and lost its rows).
    static func signedInUserArray(_ column: DraftCatalog.Column) -> String? {
        column.defaultsToSignedInUser && column.category == "A" ? "array[auth.uid()]" : nil
    }

    /// The path of a user's file (`user`: SQL for the user's id as text): in the user's
    /// folder, after `storageFolderPrefix`, named for the user.
    func storageObjectName(user: String) -> String {
        (storageFolderPrefix.isEmpty ? "" : Self.literal(storageFolderPrefix) + " || ")
            + "\(user) || '/' || \(user) || \(Self.literal("." + storageFileExtension))"
    }

    /// The first extension the policies of `bucket` compare the file's with
    /// (`lower(storage.extension(name)) = ANY (ARRAY['jpg'::text, 'png'::text])`, `=
    /// 'pdf'::text`), else `txt`: a `.txt` file was refused by every upload policy of an
    /// image bucket, and users' own uploads were drafted `none` (round forty's note).
    private static func fileExtension(of bucket: String?, in catalog: DraftCatalog) -> String {
        guard let bucket else { return "txt" }
        let literal = literal(bucket)
        let named = (catalog.policyExpressions["storage.objects"] ?? []).filter { $0.contains(literal) }
        for expression in named {
            if let match = expression.firstMatch(of: /extension\((?:objects\.)?name\)\)?\s*=\s*(?:ANY\s*\(\s*ARRAY\[)?'([A-Za-z0-9]{1,10})'/) {
                return String(match.1)
            }
        }
        return "txt"
    }

    /// 'draft/' for each folder before the one the bucket's policies compare with the user
    /// (`(storage.foldername(name))[2] = auth.uid()::text`, files at `<org>/<user>/...`):
    /// a file at `<user>/<user>.txt` matched no one, and every user's own documents were
    /// "none" (an HR app; round thirty-nine).
    private static func foldersBeforeTheUsers(of bucket: String?, in catalog: DraftCatalog) -> String {
        guard let bucket else { return "" }
        let literal = literal(bucket)
        let depth = (catalog.policyExpressions["storage.objects"] ?? [])
            .filter { $0.contains(literal) && $0.contains("auth.uid()") }
            .flatMap { $0.matches(of: /foldername\((?:objects\.)?name\)\)\[(\d+)\]/).compactMap { Int($0.1) } }
            .max() ?? 1
        return String(repeating: "draft/", count: max(0, min(depth, 5) - 1))
    }

    /// A file in a bucket the policies name (no bucket: every policy scoped to a bucket
    /// refuses every probe, and the run passes while anon reads the bucket), in the
    /// persona's folder and named for the persona (`<user id>/<user id>.txt`), as
    /// Supabase's per-user folder policies (`(storage.foldername(name))[1] = auth.uid()::text`)
    /// and per-user file names (`replace(storage.filename(name), ...)::uuid = auth.uid()`,
    /// a cast that a file named anything else made fail for the whole run) expect.
    private func storageObjectSample(columns: [DraftCatalog.Column], owner: String?, textOwner: String?, inSetup: Bool)
        -> [(column: String, expression: String)]
    {
        let bucket = storageBucket.map(Self.literal) ?? "(select min(id) from storage.buckets)"
        var sample = [("bucket_id", bucket), ("name", storageObjectName(user: "auth.uid()::text"))]
        for column in columns where (column.required || column.name == owner || column.name == textOwner)
            && !["bucket_id", "name"].contains(column.name) {
            let expression = column.name == owner ? "auth.uid()" : column.name == textOwner ? "auth.uid()::text" : nil
            sample.append((column.name, expression ?? value(for: column, inSetup: inSetup) ?? "null"))
        }
        return sample.filter { entry in columns.contains { $0.name == entry.0 } }
    }

    /// A value of the column's kind: its foreign key's, an enum label, the first value its check lists, or one for its type.
    func value(for column: DraftCatalog.Column, inSetup: Bool = false) -> String? {
        // A later column of a key of several: from the row the key's lead points at (a
        // random `game_id` beside the persona's `team_id` broke `(game_id, team_id) ->
        // games (id, team_id)`, and the table got no rows).
        // Not a key of the table's own rows whose lead may be NULL (a reply's `(parent_id,
        // post_id) -> comments (id, post_id)`): a first comment has no parent, and its
        // post came from a comment there was none of, NULL, and every comment cell was
        // "cannot probe" (a community app; round thirty-nine).
        if let part = column.keyPart, let lead = catalog.columns[part.table]?.first(where: { $0.name == part.lead }),
           lead.keyPart == nil, lead.notNull || Self.bareName(of: part.referencedTable) != Self.bareName(of: part.table),
           let leadValue = value(for: lead, inSetup: inSetup) {
            return "(select r.\(Self.sqlName(part.referenced)) from \(part.referencedTable) r "
                + "where r.\(Self.sqlName(part.leadReferenced)) = \(leadValue) limit 1)"
        }
        if column.referencesAUser { return "auth.uid()" }
        if let reference = column.reference {
            return referencedRow(reference, inSetup: inSetup)
        }
        // What a policy's WITH CHECK asks of it (`state = 'open'`).
        if let required = column.requiredByCheck { return Self.literal(required) }
        if column.requiredTrueByCheck { return "true" }
        if let label = column.firstLabel { return Self.literal(label) }
        if let allowed = column.allowedValues?.first { return Self.literal(allowed) }
        switch (column.category, column.typeName) {
        case ("S", _):
            // A text the server found its checks accept comes first (`DraftCheckedText`).
            if let checked = column.checkedText { return Self.literal(checked.single) }
            if Self.namesAnEmail(column) { return Self.literal("draft@example.com") }
            let text = "Draft \(column.name)"
            return Self.literal(column.maxLength.map { String(text.prefix($0)) } ?? text)
        case ("N", _): return column.checkedNumber ?? "1"
        case ("B", _): return "false"
        // A day after or before now where the policies compare the column with the clock;
        // an hour (a day) later than now where a check wants it after another column
        // (`check (ends_at > starts_at)`: both now, every setup row was refused).
        // The start of a period a check asks for (`month = date_trunc('month', month)`:
        // `current_date` passed on the first of the month only; round thirty-nine).
        case ("D", "date") where column.startOfPeriod != nil:
            return "date_trunc('\(column.startOfPeriod ?? "")', current_date)::date"
        case ("D", "date"):
            return ["current_date - 1", "current_date", "current_date + 1"][column.comparedWithNow + 1]
                + (Self.laterThanAnother(column) ? " + 1" : "")
        // A time of day: nine o'clock, ten where a check wants it after another (both
        // `current_time` broke `end_time > start_time`, and an hour after it may wrap
        // past midnight); the clock's where the policies compare it with the clock.
        case ("D", "time"), ("D", "timetz"):
            guard column.comparedWithNow == 0 else { return "current_time" }
            return Self.laterThanAnother(column) ? "'10:00'::time" : "'09:00'::time"
        case ("D", _):
            return ["now() - interval '1 day'", "now()", "now() + interval '1 day'"][column.comparedWithNow + 1]
                + (Self.laterThanAnother(column) ? " + interval '1 hour'" : "")
        case (_, "uuid"): return "gen_random_uuid()"
        case (_, "json"), (_, "jsonb"), ("A", _): return "'{}'"
        case ("I", _): return "'192.0.2.1'"
        default: return Self.otherTypeValues[column.typeName] ?? (column.category == "R" ? "'empty'" : nil)
        }
    }

    /// A value for the types no category above covers, by the type's name: without one,
    /// a NOT NULL column got NULL and every setup row was refused (an API key's
    /// `key_hash bytea not null` hid a table's `using (true)` read and update).
    private static let otherTypeValues: [String: String] = [
        "bytea": #"'\x6472616674'"#, "interval": "interval '1 day'", "tsvector": "'draft'", "tsquery": "'draft'",
        "point": "'(0,0)'", "box": "'((0,0),(1,1))'", "circle": "'<(0,0),1>'", "lseg": "'[(0,0),(1,1)]'",
        "path": "'((0,0),(1,1))'", "polygon": "'((0,0),(1,1),(1,0))'", "line": "'{1,-1,0}'",
        "macaddr": "'08:00:2b:01:02:03'", "macaddr8": "'08:00:2b:01:02:03:04:05'", "xml": "'<draft/>'",
        "tstzrange": "tstzrange(now(), now() + interval '1 day')", "tsrange": "tsrange(localtimestamp, localtimestamp + interval '1 day')",
        "daterange": "daterange(current_date, current_date + 1)", "int4range": "'[1,2)'", "int8range": "'[1,2)'", "numrange": "'[1,2)'",
    ]

    /// A text column named for an e-mail address (`email`, `invitee_email`), long enough
    /// for one: its checks often ask for an `@` and a dot, which 'Draft email' lacks.
    static func namesAnEmail(_ column: DraftCatalog.Column) -> Bool {
        column.name.lowercased().contains("email") && (column.maxLength ?? 255) >= 20
    }

    /// PostgreSQL 15's keywords that are not unreserved (`select catcode, word from
    /// pg_get_keywords() where catcode <> 'U'`: reserved, type or function names, and
    /// column-name keywords), which a bare column name may not be: `"for"` unquoted
    /// stopped a real project's whole draft with 42601 (round thirty-nine).
    private static let reserved: Set<String> = [
        "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "between",
        "bigint", "binary", "bit", "boolean", "both", "case", "cast", "char", "character", "check", "coalesce",
        "collate", "collation", "column", "concurrently", "constraint", "create", "cross", "current_catalog",
        "current_date", "current_role", "current_schema", "current_time", "current_timestamp", "current_user",
        "dec", "decimal", "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "exists",
        "extract", "false", "fetch", "float", "for", "foreign", "freeze", "from", "full", "grant", "greatest",
        "group", "grouping", "having", "ilike", "in", "initially", "inner", "inout", "int", "integer", "intersect",
        "interval", "into", "is", "isnull", "join", "lateral", "leading", "least", "left", "like", "limit",
        "localtime", "localtimestamp", "national", "natural", "nchar", "none", "normalize", "not", "notnull",
        "null", "nullif", "numeric", "offset", "on", "only", "or", "order", "out", "outer", "overlaps", "overlay",
        "placing", "position", "precision", "primary", "real", "references", "returning", "right", "row", "select",
        "session_user", "setof", "similar", "smallint", "some", "substring", "symmetric", "table", "tablesample",
        "then", "time", "timestamp", "to", "trailing", "treat", "trim", "true", "union", "unique", "user", "using",
        "values", "varchar", "variadic", "verbose", "when", "where", "window", "with", "xmlattributes", "xmlconcat",
        "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize",
        "xmltable",
    ]

    /// An identifier as SQL needs it: bare when it is a plain lowercase name, else quoted.
    static func sqlName(_ name: String) -> String {
        isPlain(name) && !reserved.contains(name) ? name : SQL.quoteIdentifier(name)
    }

    /// Lowercase letters, digits and underscores, not starting with a digit.
    static func isPlain(_ name: String) -> Bool {
        // Bytes, not Characters: Unicode properties made this a twentieth of a large draft.
        func lower(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        guard let first = name.utf8.first, lower(first) else { return false }
        return name.utf8.allSatisfy { lower($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// A table's name without its schema, lower case (`public.Members` -> `members`), as
    /// function bodies name it.
    static func bareName(of table: String) -> String {
        String(table.split(separator: ".").last ?? Substring(table)).lowercased()
    }

    /// A regular expression for the ways a lowercased function body may name `table`:
    /// qualified or not, each part quoted or not (`public.profiles`, `"profiles"`).
    static func namePattern(of table: String) -> String {
        let parts = table.lowercased().split(separator: ".", maxSplits: 1).map(String.init)
        let name = NSRegularExpression.escapedPattern(for: parts.last ?? table)
        let schema = parts.count == 2 ? NSRegularExpression.escapedPattern(for: parts[0]) : ""
        return #"(?:"?"# + schema + #""?\s*\.\s*)?"?"# + name + #""?"#
    }

    /// A foreign key's value: the first referenced row the user owns when the referenced
    /// table has an owner column; else, when a membership table links the referenced
    /// rows to users (`members (org_id -> orgs, user_id -> auth.users)`), the first one
    /// the user is a member of; else one the user created (a column of the referenced
    /// table referencing auth.users, `created_by`, which the setup fills with the
    /// persona); failing those, the first row. (Any row first made every persona's child
    /// row point at ava's parent: ben a member of ava's household, a made-up DANGER.)
    ///
    /// Which one: in the table's physical order (`ctid`: the order the rows were made in,
    /// the same every run), in the admin's setup (`inSetup`) and in a probe where
    /// signed-in users may select from the whole table, else (a grant of some columns) by
    /// key; the persona's own row is the last made (the setup's, made for probing, after
    /// a sign-up trigger's personal account, which refused invites), any other the first. By
    /// key, keys from `gen_random_uuid()` gave ava's organisation in one run and ben's in
    /// the next, so a drafted plan passed one run and failed the next; and a persona's
    /// own two accounts (one from the sign-up trigger, one from the setup) came in either
    /// order, so an invite into a team account was refused in one run and went through
    /// in the next. (A lint probe reads the sample as the persona, who may lack the
    /// table-wide SELECT that `ctid` needs.)
    private func referencedRow(_ reference: (table: String, column: String), inSetup: Bool) -> String {
        let name = Self.sqlName(reference.column)
        let order = inSetup || catalog.tablesSignedInMaySelect.contains(reference.table) ? "ctid" : name
        // Of the persona's own rows, the last made: the setup's, made for probing, where
        // a sign-up trigger's came first (a personal account, which refused invites).
        let ownOrder = order == "ctid" ? "ctid desc" : order
        if let owner = ownerColumn(of: reference.table) {
            return "(select \(name) from \(reference.table) where \(Self.sqlName(owner)) = auth.uid() order by \(ownOrder) limit 1)"
        }
        let first = "(select \(name) from \(reference.table) order by \(order) limit 1)"
        // In the setup, each persona's own row where there are enough (`personaIndex`:
        // 0 for ava, 1 for ben), so a link table (`player_links (user_id, player_id)`)
        // does not make both personas one app user; the first when there are not.
        let plain = inSetup
            ? "coalesce((select \(name) from \(reference.table) order by ctid offset \(Self.personaIndex) limit 1), \(first))"
            : first
        // A lookup row of a role the rules name (`app_roles 'admin'`) only when there is no other.
        let any = catalog.singledOut.keys["\(reference.table)|\(reference.column)"].map { named in
            "coalesce((select \(name) from \(reference.table) where \(name)::text <> all(array["
                + named.map(Self.literal).joined(separator: ", ") + "]) order by \(order) limit 1), \(plain))"
        } ?? plain
        let created = creatorColumn(of: reference.table).map {
            "(select \(name) from \(reference.table) where \(Self.sqlName($0)) = auth.uid() order by \(ownOrder) limit 1)"
        }
        // A row whose parent is the persona's (`assignments` of an owned `courses` row).
        let throughParent = ownedThroughKeys(reference.table, alias: "r", depth: 1).map {
            "(select r.\(name) from \(reference.table) r where \($0) order by r.\(order) limit 1)"
        }
        // A row the table's owner rule gives the persona where no key leads to its owner:
        // through a function (`org_id = public.my_org()`) or a policy's expression
        // (`branch_id in (select ... where organization_id = public.auth_org_id())`): an
        // order of the persona's own organisation, where the first order was ava's for
        // both personas, and ben's own insert was refused.
        // In the setup, the admin's, only a rule that names auth.uid() itself (which
        // the setup makes each row's user): a helper reading the claims answers for no
        // one there, and one that refuses a caller who is not signed in (`raise ...
        // 'authentication required'`) lost every row of the insert (an organisations
        // app: no persona belonged to any organisation).
        let throughRule = throughParent == nil
            ? ownerRule(of: reference.table).flatMap { rule in
                inSetup && !rule.contains("auth.uid()") ? nil
                    : "(select \(name) from \(reference.table) where \(rule) order by \(order) limit 1)"
            }
            : nil
        var choices = [throughParent, throughRule, created, any].compactMap { $0 }
        if let link = membership(of: reference) {
            choices.insert("(select r.\(name) from \(reference.table) r where exists (select 1 from \(link.table) m "
                + "where m.\(link.rowColumn) = r.\(name) and m.\(link.userColumn) = auth.uid()) order by r.\(order) limit 1)", at: 0)
        }
        return choices.count == 1 ? any : "coalesce(\(choices.joined(separator: ", ")))"
    }

    /// A condition true of `table`'s rows (named `alias`) that belong to the persona
    /// through foreign keys: its owner column is the persona, or a foreign key points at
    /// such a row of another table (at most three tables up). Without it, a row two keys
    /// away from its owner (`materials -> assignments -> courses.user_id`) was "the first
    /// row there is": ava's for both personas, or a seeded user's, and by key a different
    /// one each run (made-up DANGERs that came and went).
    func ownedThroughKeys(
        _ table: String, alias: String, depth: Int, preferring named: Set<String> = [], throughHelpers: Bool = false
    ) -> String? {
        if let owner = ownerColumn(of: table) { return "\(alias).\(Self.sqlName(owner)) = auth.uid()" }
        // Else, after its own keys: a parent whose rows are the user's through a helper
        // given their columns (`public.in_team(team_id)`), by its rule as written, whose
        // bare columns name the innermost FROM's (the parent's) row. (A recipe's steps,
        // read through the recipe's own policy, had no owner rule: "may insert, update,
        // delete every row" was made up.) The direct parent's only, and for an owner rule
        // only, whose failure on the rows the draft notes and replaces: a school's helper
        // (reading a materialized view never refreshed) failed the samples through it of
        // an LMS's tables, their service role's inserts among them.
        let helperRule = { throughHelpers && depth == 2 ? ruleThroughUserFunction(of: table) : nil }
        guard depth <= 3 else { return helperRule() }
        let parent = "p\(depth)"
        // The parents the policies name first (`pod_tags` checks its `pod_description_id`,
        // not the `pod_id` its first key holds: ava's tag on her own description naming
        // ben's pod was "another user's row").
        let columns = catalog.columns[table] ?? []
        let ordered = columns.filter { named.contains($0.reference?.table ?? "") } + columns.filter { !named.contains($0.reference?.table ?? "") }
        for column in ordered {
            guard let reference = column.reference, reference.table != "auth.users", reference.table != table,
                  let owned = ownedThroughKeys(reference.table, alias: parent, depth: depth + 1, throughHelpers: throughHelpers)
            else { continue }
            return "\(alias).\(Self.sqlName(column.name)) in (select \(parent).\(Self.sqlName(reference.column)) "
                + "from \(reference.table) \(parent) where \(owned))"
        }
        return helperRule()
    }

    /// The column of `table` naming the user who made a row: the first one referencing
    /// auth.users (id) that an insert must give (the setup fills it with the persona),
    /// else the first referencing auth.users (id) at all.
    private func creatorColumn(of table: String) -> String? {
        let users = (catalog.columns[table] ?? []).filter(\.referencesAUser)
        return (users.first(where: \.required) ?? users.first)?.name
    }

    /// The first table (by name) other than the referenced one with a column referencing
    /// `reference` and one referencing auth.users (id), both in a unique key (a junction
    /// table, `unique (user_id, organization_id)`; an activity log that names both is not
    /// a membership), or the user's column unique by itself (`profiles (id, school_id)`:
    /// the user's one profile names the user's school): its name and those columns, as
    /// SQL. (Without the second, an insert probe's school was the first by key, the
    /// persona's in some runs only.)
    private func membership(of reference: (table: String, column: String)) -> (table: String, rowColumn: String, userColumn: String)? {
        for (table, columns) in catalog.columns.sorted(by: { $0.key < $1.key }) {
            let parts = table.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, parts.allSatisfy(Self.isPlain), table != reference.table,
                  let (user, row) = membershipKey(of: table, columns, row: { column in
                      column.reference?.table == reference.table && column.reference?.column == reference.column
                  })
            else { continue }
            return (parts.map(Self.sqlName).joined(separator: "."), Self.sqlName(row.name), Self.sqlName(user.name))
        }
        return nil
    }

    /// A membership's key among `columns` (those of `table`): its user column (a foreign
    /// key to auth.users, or to a table keyed by its users such as `public.users (id)`,
    /// or else the uuid column its policies compare with auth.uid(), in a unique key) and
    /// the first other column `isRow` accepts that is in a unique key too, or any such
    /// column when the user column is unique by itself. (Members keyed by a profile were
    /// no membership, nor were members whose user ids came from another auth provider,
    /// with no foreign key: any user joining any organisation went unseen.)
    private func membershipKey(of table: String, _ columns: [DraftCatalog.Column], row isRow: (DraftCatalog.Column) -> Bool)
        -> (user: DraftCatalog.Column, row: DraftCatalog.Column)?
    {
        guard let user = columns.first(where: { $0.unique && $0.referencesAUser })
                ?? columns.first(where: { $0.unique && userKeyedTable(of: $0) != nil })
                ?? ownerColumn(of: table).flatMap({ owner in
                    columns.first { $0.unique && $0.typeName == "uuid" && $0.name == owner }
                })
                // No foreign key, and compared with auth.uid() only in a helper's body
                // (`is_member(gid)`): a uuid named for its user (`user_id`). Without it no
                // persona was a member of anything: 36 cells of a shopping-list app unprobed.
                ?? columns.first(where: { $0.unique && $0.typeName == "uuid" && $0.reference == nil && Self.namesItsUser($0.name) }),
              let row = columns.first(where: { $0.name != user.name && isRow($0) && ($0.unique || user.uniqueAlone) })
        else { return nil }
        return (user, row)
    }

    /// Whether one of the column's checks on it and one other column wants it after that
    /// one (`(ends_at > starts_at)`, `(starts_at < ends_at)`, `>=`, `<=`).
    static func laterThanAnother(_ column: DraftCatalog.Column) -> Bool {
        let name = NSRegularExpression.escapedPattern(for: column.name)
        let other = #"(?:"[^"]+"|[A-Za-z_][\w$]*)"#
        return column.pairChecks.contains { check in
            check.range(of: #"(?<![\w"])"?"# + name + #""?\s*>=?\s*"# + other, options: .regularExpression) != nil
                || check.range(of: other + #"\s*<=?\s*"?"# + name + #""?(?![\w"])"#, options: .regularExpression) != nil
        }
    }

    /// The tables of the catalog that `table`'s triggers insert rows into (`insert into
    /// public.item_events`), as the catalog names them.
    func tablesWrittenByInsertTriggers(of table: String) -> [String] {
        tablesNamedByTriggers(of: table).compactMap { other, bodies in
            bodies.contains { Self.inserts(into: other, in: $0) } ? other : nil
        }
    }

    /// Whether a function body (lowercased) inserts rows into `table` (`insert into
    /// public.item_events (...)`, qualified or not).
    static func inserts(into table: String, in body: String) -> Bool {
        body.contains(bareName(of: table))
            && body.range(of: #"insert\s+into\s+"# + namePattern(of: table) + #"[\s(]"#, options: .regularExpression) != nil
    }

    /// The other tables `table`'s triggers, or the project's functions they call, read
    /// (`from team_members`, `join ...`), but those in `written` (what its insert triggers
    /// write, `tablesWrittenByInsertTriggers`): a guard refusing a writer who is no member
    /// (`if not is_member(new.team_id) then raise`) needs their rows first.
    func tablesReadByTriggers(of table: String, besides written: Set<String>) -> [String] {
        let bodies = (catalog.triggerBodies[table] ?? []) + (catalog.triggerHelperBodies[table] ?? [])
        guard !bodies.isEmpty else { return [] }
        return catalog.columns.keys.sorted().filter { other in
            guard other != table, !written.contains(other) else { return false }
            let bare = Self.bareName(of: other)
            return bodies.contains { body in
                body.contains(bare) && body.range(
                    of: #"\b(?:from|join)\s+"# + Self.namePattern(of: other) + #"(?![\w"])"#, options: .regularExpression) != nil
            }
        }
    }

    /// The other tables of the catalog, by name, whose bare name the bodies (lowercased)
    /// of `table`'s triggers contain, with those bodies: a plain search first, so that a
    /// statement's pattern is made only for them (one per pair of tables was slow on
    /// large projects).
    private func tablesNamedByTriggers(of table: String) -> [(table: String, bodies: [String])] {
        let bodies = catalog.triggerBodies[table] ?? []
        guard !bodies.isEmpty else { return [] }
        return catalog.columns.keys.sorted().compactMap { other in
            let bare = Self.bareName(of: other)
            let naming = bodies.filter { $0.contains(bare) }
            return other == table || naming.isEmpty ? nil : (other, naming)
        }
    }

    /// Whether a default, as `pg_get_expr` spells it, is one constant: a quoted literal
    /// with its cast (`'m'::text`), or a number.
    static func isConstant(_ expression: String?) -> Bool {
        guard let expression else { return false }
        return expression.range(of: #"^'(?:[^']|'')*'(::[\w. "\[\]]+)?$"#, options: .regularExpression) != nil
            || Double(expression) != nil
    }

    /// Whether a column's name says it holds a user's id: `user_id`, `owner_user_id`.
    static func namesItsUser(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "user_id" || lowered.hasSuffix("_user_id") || lowered == "uid"
    }

    /// The membership table whose rows make `table`'s rows their members' (`members
    /// (group_id -> groups, user_id)`: `membershipColumns`), with its row and user
    /// columns, and the key of `table` the row column names; nil when there is none.
    func groupMembership(of table: String) -> (table: String, row: String, user: String, key: String)? {
        for (candidate, columns) in catalog.columns.sorted(by: { $0.key < $1.key }) {
            guard let membership = membershipColumns(of: candidate), membership.parent == table,
                  let key = columns.first(where: { $0.name == membership.rowColumn })?.reference?.column else { continue }
            return (candidate, membership.rowColumn, membership.userColumn, key)
        }
        return nil
    }

    /// The columns that make `table` a membership table that grants access: a user
    /// column in a unique key, and a foreign key to another table (`parent`, quoted as
    /// the catalog gives it) in one too, or the user column unique alone; with the
    /// foreign key's type. Only where other tables' policies read the table (a like or
    /// a bookmark, `likes (user_id, post_id)`, is no membership).
    func membershipColumns(of table: String) -> (parent: String, rowColumn: String, userColumn: String, rowType: String)? {
        let columns = catalog.columns[table] ?? []
        guard catalog.tablesReadByOtherTablesPolicies.contains(table),
              let (user, row) = membershipKey(of: table, columns, row: { column in
                  column.writable && column.reference.map { $0.table != "auth.users" && $0.table != table } == true
              }),
              let parent = row.reference?.table
        else { return nil }
        return (parent, row.name, user.name, row.typeName)
    }

    /// Admin SQL giving each signed-in persona a row of `table` (so own and other
    /// users' rows exist to probe): the sample with auth.uid()/auth.email() as each
    /// persona's. A row that cannot be made is skipped with a notice.
    /// A table no one owns gets one row from its sample when it is empty, so that
    /// update and delete probes have a row to try.
    /// A link table also gets a row per persona: a table without an owner
    /// rule whose foreign keys another table's rules read, so each persona's row there
    /// points at the persona's rows (`memberships (user_id, organization_id)` for
    /// `organizations`' rule). With one shared row, no organisation was anyone's.
    func setupRows(table: String, quotedTable: String, emails: [String]) -> String? {
        if heldByThePrivilegeHolder(table) { return nil }
        return rows(table: table, quotedTable: quotedTable, emails: emails)
    }

    /// The row of a table whose row is itself a privilege (`grantsByItsRows`) for the
    /// user who is no persona (`DraftStandInUser.privilegeHolder`): the table has a row to
    /// read and another user's row to write, and no persona holds the privilege.
    func privilegeHolderRow(table: String, quotedTable: String) -> String? {
        heldByThePrivilegeHolder(table)
            ? rows(table: table, quotedTable: quotedTable, emails: [DraftStandInUser.privilegeHolder.email]) : nil
    }

    /// An insert of `table`'s drafted sample row, as the persona acting (`default values`
    /// where it has none): what lint's probes try as a user's own insert.
    func insertOfTheSample(of table: String, into quoted: String) -> String {
        let sample = sample(of: table)
        guard !sample.isEmpty else { return "insert into \(quoted) default values" }
        return "insert into \(quoted) (\(sample.map { Self.sqlName($0.column) }.joined(separator: ", "))) "
            + "values (\(sample.map(\.expression).joined(separator: ", ")))"
    }

    private func rows(table: String, quotedTable: String, emails: [String]) -> String? {
        let sample = self.sample(of: table, inSetup: true)
        // A table that names a user in a required column gets a row per persona too, each
        // naming its persona: with one, ava's, a read of "every row" was a read of her own
        // (check-ins read by the members of the event's organisation: a made-up DANGER,
        // "sees every user's rows").
        // So does a table whose required key points at rows the personas own (settings
        // per project, read through the project's own policy): with one row, ava's, her
        // read of it was "every row" (a made-up DANGER) and ben had none.
        let namesItsUser = (catalog.columns[table] ?? []).contains { column in
            let named = column.required && sample.contains { $0.column == column.name }
            // A NOT NULL user column left to its `default auth.uid()` names its user too
            // (`owner_id -> profiles`, the rule in a helper taking the whole row): one
            // row, ava's, was "every row" (a made-up DANGER), and ben had none.
            let defaulted = column.defaultsToSignedInUser && column.notNull
            return (named || defaulted)
                && (column.referencesAUser || column.reference.map { $0.table != table && ownerRule(of: $0.table) != nil } == true)
        }
        let perPersona = ownerRule(of: table) != nil || linksRowsForOtherPolicies(table) || namesItsUser
        // A table the personas' rows point into (`seats.team -> teams`) with fewer rows
        // than personas gets a row per persona too, so each persona's row has a parent of
        // its own: with one, both personas sat in one team and each saw the other's seat
        // (a made-up DANGER). One team a project's migration made did the same (a
        // helpdesk: six made-up DANGERs, and two real ones unseen; round thirty-four).
        let parent = !perPersona && !sample.isEmpty && isParentOfPersonaRows(table)
        // Where every value of its role column makes its user what the rules single out, a
        // row only for the user who is no persona.
        let singledOut = emails != [DraftStandInUser.privilegeHolder.email]
            && singledOutRoleColumn(of: table, setupSample: sample) != nil
        guard perPersona || parent else {
            // Not even one row where every value of its role column singles its user out
            // (`user_roles` readable by all, its one role super_admin): ava an administrator.
            return sample.isEmpty || singledOut ? nil : unownedRow(table, quotedTable, sample, userEmail: emails.first ?? "")
        }
        // No signed-in persona (all left out): no one to own a row.
        guard !emails.isEmpty, !singledOut else { return nil }
        // A column whose default is auth.uid() is NULL for the admin: the persona's own
        // insert would have filled it with the persona (a NOT NULL one refused every row).
        let flags = flagsMakingOwnRowsShown(rowShowingFlags(of: table), table: table)
        let unhidden = sample + (catalog.columns[table] ?? []).filter { column in
            column.defaultsToSignedInUser && column.writable && !sample.contains { $0.column == column.name }
        }.map { ($0.name, Self.signedInUserArray($0) ?? "auth.uid()") }
        let row = Self.setting(flags, in: unhidden, to: \.hidden)
        let columns = row.map { Self.sqlName($0.column) }.joined(separator: ", ")
        let list = emails.map(Self.literal).joined(separator: ", ")
        let index = "(select count(*) from auth.users v where v.email in (\(list)) and v.email < u.email)"
        // The first persona's shown row, or the stand-in's where a user has one row
        // (`standInShownRowColumn`): numbered after every persona's, so its unique values
        // differ from theirs.
        let standInUser = standInShownRowColumn(of: table)
        let shownOwner = standInUser == nil ? emails.min() ?? "" : DraftStandInUser.privilegeHolder.email
        let shownRow = Self.setting(flags, in: unhidden, to: \.shown).map {
            ($0.column, setupValue($0, table: table, quotedTable: quotedTable)
                .replacingOccurrences(of: DraftDistinctValue.personaNumber, with: "(\(DraftDistinctValue.personaNumber) + \(emails.count))")
                .replacingOccurrences(of: Self.personaIndex, with: "\(emails.count)"))
        }
        let shown = flags.isEmpty ? "" : extraRow(table, quotedTable, columns: columns, values: shownRow.map(\.1),
                                                  from: "from auth.users u where u.email = \(Self.literal(shownOwner))")
            + (standInUser.map { standInRowShown(quotedTable, table: table, user: $0, flags: flags, row: shownRow) } ?? "")
        // One more row per persona in each state a child's write asks of it (`DraftParentStates`).
        let stateRows = catalog.parentStates.states(of: table).map { state in
            Self.setting(Dictionary(state.map { ($0.column, DraftCatalog.RowVisibility(shown: $0.value, hidden: $0.value)) }) { first, _ in first },
                         in: row, to: \.shown)
        }
        // Numbered after every persona's rows, for the users `from` selects.
        func stateInserts(number: String, from: String) -> String {
            stateRows.map { entries in
                extraRow(table, quotedTable, columns: entries.map { Self.sqlName($0.column) }.joined(separator: ", "),
                         values: entries.map {
                             setupValue($0, table: table, quotedTable: quotedTable).replacingOccurrences(of: Self.personaIndex, with: index)
                                 .replacingOccurrences(of: DraftDistinctValue.personaNumber, with: number)
                         }, from: from, lost: "no row in the state a child asks for")
            }.joined()
        }
        let states = stateInserts(number: "(\(DraftDistinctValue.personaNumber) + \(emails.count))",
                                  from: "from auth.users u where u.email in (\(list))")
        let statesOfOne = stateInserts(number: "(\(index) + 1 + \(emails.count))", from: "from auth.users u where u.id = persona.id")
        let madeAtSignUp = rowMadeAtSignUp(table, quotedTable, row: row)
        guard catalog.tablesWithUserReadingTriggers.contains(table) else {
            let filter = "from auth.users u where u.email in (\(list))"
                + (parent ? " and (select count(*) from \(quotedTable)) < \(emails.count)" : "") + madeAtSignUp
            return """
                do $draft$ begin\(insertTriedAgainForWideChecks(table, quotedTable, row: row, index: index, filter: filter))\(shown)\(states)
                exception when others then
                  raise notice 'plan draft: no rows for \(table.replacingOccurrences(of: "'", with: "''")): %', sqlerrm;
                end $draft$
                """
        }
        // A trigger reads the signed-in user: each persona's row is made with its claims,
        // one insert per persona, as its own request would make it. Each insert selects
        // one user, so a persona's number is counted, not `row_number()` (1 for both: a
        // unique path's two rows collided, ben's was dropped, and ava's read of the only
        // row was "all", a made-up DANGER on a private documents table; round thirty-four).
        let valuesOfOne = row.map {
            setupValue($0, table: table, quotedTable: quotedTable).replacingOccurrences(of: Self.personaIndex, with: index)
        }.joined(separator: ", ").replacingOccurrences(of: DraftDistinctValue.personaNumber, with: "(\(index) + 1)")
        return """
            do $draft$
            declare
              persona record;\(parent ? "\n  short boolean := (select count(*) from \(quotedTable)) < \(emails.count);" : "")
              claims text := current_setting('request.jwt.claims', true);
            begin
              for persona in select u.id, u.email from auth.users u where u.email in (\(list)) order by u.email loop
                perform set_config('request.jwt.claims', \(Self.signedInClaims(id: "persona.id", email: "persona.email")), true);
                insert into \(quotedTable) (\(columns))
                select \(valuesOfOne) from auth.users u where u.id = persona.id\(parent ? " and short" : "")\(madeAtSignUp)
                \(onConflict(table))\(statesOfOne.replacingOccurrences(of: "\n  ", with: "\n    "))
              end loop;\(shown.isEmpty ? "" : "\n  " + Self.signInStatement(email: shownOwner) + shown)
              perform set_config('request.jwt.claims', coalesce(claims, ''), true);
            exception when others then
              raise notice 'plan draft: no rows for \(table.replacingOccurrences(of: "'", with: "''")): %', sqlerrm;
            end $draft$
            """
    }

    /// The setup's insert of the personas' rows (`row`, for the users `filter` selects);
    /// where a check of several columns asks for nullable columns the row leaves NULL
    /// (`Column.askedNotNullByAWideCheck`), the same insert again when the first breaks a
    /// check (23514): with the first of them given a value (exactly one parent,
    /// `(a is not null)::int + (b is not null)::int = 1`), then with all. (A stream
    /// imported or entered by hand, `(is_manual = false and plaid_stream_id is not null)
    /// or (...)`, and a variant of a service or of an appointment: every row was refused;
    /// round forty-one.) Only on that failure, so a row the check accepts is made as before.
    private func insertTriedAgainForWideChecks(_ table: String, _ quotedTable: String, row: [(column: String, expression: String)],
                                               index: String, filter: String) -> String {
        func insert(_ entries: [(column: String, expression: String)]) -> String {
            let values = entries.map {
                setupValue($0, table: table, quotedTable: quotedTable).replacingOccurrences(of: Self.personaIndex, with: index)
            }
            return "insert into \(quotedTable) (\(entries.map { Self.sqlName($0.column) }.joined(separator: ", ")))\n"
                + "  select \(values.joined(separator: ", ")) \(filter)\n  \(onConflict(table))"
        }
        let asked = (catalog.columns[table] ?? []).filter { column in
            column.askedNotNullByAWideCheck && !row.contains { $0.column == column.name }
        }
        let extra = asked.compactMap { column in value(for: column, inSetup: true).map { (column.name, $0) } }
        guard !extra.isEmpty else { return "\n  " + insert(row) }
        // Each attempt in the handler of the one before it.
        let first: [(column: String, expression: String)] = row + [extra[0]]
        let attempts: [[(column: String, expression: String)]] = (extra.count > 1 ? [first] : []) + [row + extra]
        return attempts.reduce("\n  " + insert(row)) { tried, entries in
            let indented = { (text: String) in text.replacingOccurrences(of: "\n", with: "\n  ") }
            return "\n  begin" + indented(tried) + "\n  exception when check_violation then" + indented("\n  " + insert(entries))
                + "\n  end;"
        }
    }

    /// The claims a setup row is made with when a trigger of its table reads the
    /// signed-in user (`DraftCatalog.tablesWithUserReadingTriggers`): the user's id and
    /// email as a signed-in request's token carries them, as JSON text.
    static func signedInClaims(id: String, email: String) -> String {
        "json_build_object('sub', \(id), 'role', 'authenticated', 'email', \(email))::text"
    }

    /// A PL/pgSQL statement setting the request's claims to those of the user with `email`.
    static func signInStatement(email: String) -> String {
        "perform set_config('request.jwt.claims', (select \(signedInClaims(id: "u.id", email: "u.email")) "
            + "from auth.users u where u.email = \(literal(email))), true);"
    }

    /// The columns of `table` its read policies show rows by (`Column.showsRows`),
    /// with their showing and hiding values; and its foreign keys to a parent whose flag
    /// shows the parent's rows where `table`'s policies read that flag through the parent
    /// (`parentShowingKeys`).
    private func rowShowingFlags(of table: String) -> [String: DraftCatalog.RowVisibility] {
        Dictionary((catalog.columns[table] ?? []).compactMap { column in
            column.showsRows.map { (column.name, $0) }
        } + parentShowingKeys(of: table)) { own, _ in own }
    }

    /// `flags` with the showing and hiding values swapped for each flag of `table`'s own
    /// that its owner rule asks for beside the user (`visibility = 'participants' and
    /// exists (... requester_id = auth.uid())`): each persona's row is shown, so it is
    /// the persona's own, and the one extra row is the hidden one. With every persona's
    /// row hidden, only ava's extra row was anyone's own: ben's read was "cannot probe"
    /// (a services marketplace's support messages, round forty-one).
    private func flagsMakingOwnRowsShown(_ flags: [String: DraftCatalog.RowVisibility],
                                         table: String) -> [String: DraftCatalog.RowVisibility] {
        guard let rule = ownerRule(of: table) else { return flags }
        let conjuncts = OwnerRuleBranch.topLevelConjuncts(of: Self.oneLine(rule))
        guard conjuncts.count > 1 else { return flags }
        let ownColumns = Set((catalog.columns[table] ?? []).filter { $0.showsRows != nil }.map(\.name))
        return flags.reduce(into: [:]) { swapped, flag in
            let (column, visibility) = flag
            guard ownColumns.contains(column), let shown = visibility.shown,
                  conjuncts.contains(where: { Self.names(column: column, in: $0) && !$0.contains("auth.uid()") }) else {
                swapped[column] = visibility
                return
            }
            swapped[column] = DraftCatalog.RowVisibility(shown: visibility.hidden, hidden: shown)
        }
    }

    /// The foreign keys of `table` to a parent whose rows a flag shows (`articles.status =
    /// 'published'`), where `table`'s own policies read that flag through the parent
    /// (`exists (select 1 from articles a where a.id = article_id and a.status =
    /// 'published')`): which parent a row names shows or hides it. The hiding value names
    /// the parent row the key would name (the persona's) where the flag hides it, else
    /// the first it hides; the showing value likewise. (Each child row named the first
    /// parent, a draft: no one read any section of a published article, and anon's
    /// `none` hid what every visitor reads.)
    private func parentShowingKeys(of table: String) -> [(String, DraftCatalog.RowVisibility)] {
        let expressions = (catalog.policyExpressions[table] ?? []).map(Self.oneLine)
        return (catalog.columns[table] ?? []).compactMap { column in
            guard let reference = column.reference, reference.table != "auth.users", reference.table != table,
                  let flag = (catalog.columns[reference.table] ?? []).first(where: { flag in
                      flag.showsRows?.shown != nil && expressions.contains { expression in
                          expression.contains(Self.bareName(of: reference.table)) && Self.names(column: flag.name, in: expression)
                      }
                  }), let shows = flag.showsRows, let shown = shows.shown else { return nil }
            let key = Self.sqlName(reference.column)
            let base = referencedRow(reference, inSetup: true)
            func naming(_ value: String) -> String {
                let flagged = "x.\(Self.sqlName(flag.name)) = \(value)"
                return "coalesce((select x.\(key) from \(reference.table) x where x.\(key) = \(base) and \(flagged)), "
                    + "(select x.\(key) from \(reference.table) x where \(flagged) order by x.ctid limit 1), \(base))"
            }
            return (column.name, DraftCatalog.RowVisibility(shown: naming(shown), hidden: naming(shows.hidden)))
        }
    }

    /// A setup row with each of `flags` at the value `pick` gives it, the flags it lacks
    /// added at the end by name, so the hiding and the showing row have their columns in
    /// one order. The hiding row (`\.hidden`): every persona's row hidden where only a
    /// flag shows it (left to a default of false, every row was hidden, and anon's read
    /// of published rows was never seen). The showing row (`\.shown`): a flag that shows
    /// by any value (`code is not null`) keeps the row's own, or is NULL where it has none.
    static func setting(_ flags: [String: DraftCatalog.RowVisibility], in row: [(column: String, expression: String)],
                                to pick: (DraftCatalog.RowVisibility) -> String?) -> [(column: String, expression: String)] {
        row.map { entry in flags[entry.column].flatMap(pick).map { (entry.column, $0) } ?? entry }
            + flags.keys.sorted().filter { flag in !row.contains { $0.column == flag } }.map { ($0, flags[$0].flatMap(pick) ?? "null") }
    }

    /// A nested block inserting one more setup row (for the users `from` selects, if
    /// any): by default one each flag at its showing value, a row the flags show, so a
    /// reader's cell says whether it sees such rows (`DraftOwnership+ParentStates` makes
    /// rows in a state a child asks for). Its failure (a check the values miss) loses
    /// only that row, with a notice saying `lost` and the table.
    func extraRow(_ table: String, _ quotedTable: String, columns: String, values: [String], from: String,
                  lost: String = "no shown row for") -> String {
        """

              begin
                insert into \(quotedTable) (\(columns))
                select \(values.joined(separator: ", "))\(from.isEmpty ? "" : " " + from)
                \(onConflict(table))
              exception when others then
                raise notice 'plan draft: \(lost) \(table.replacingOccurrences(of: "'", with: "''")): %', sqlerrm;
              end;
            """
    }

    /// The user column of `table` where its shown row is the user's who is no persona: a
    /// flag shows its rows (`is_public`) and that column keeps one row per user
    /// (`profiles.id`); nil elsewhere. The first persona's shown row collided with her
    /// own (made hidden by the setup or at sign-up), so no row was shown and anon's read
    /// of public profiles was drafted `none`; and ava's row shown would have made all of
    /// ben's other rows shown.
    func standInShownRowColumn(of table: String) -> String? {
        let columns = catalog.columns[table] ?? []
        guard columns.contains(where: { $0.showsRows != nil }),
              let user = ownerColumn(of: table) ?? catalog.userColumns[table],
              columns.contains(where: { $0.name == user && $0.uniqueAlone && $0.referencesAUser }) else { return nil }
        return user
    }

    /// A nested block setting the flags of the stand-in's row to their showing values,
    /// where its sign-up made the row (hidden, by its defaults) and the shown row's insert
    /// kept nothing.
    private func standInRowShown(_ quotedTable: String, table: String, user: String, flags: [String: DraftCatalog.RowVisibility],
                                 row: [(String, String)]) -> String {
        let assignments = row.filter { flags[$0.0] != nil }.map { "\(Self.sqlName($0.0)) = \($0.1)" }
        guard !assignments.isEmpty else { return "" }
        return """

              begin
                update \(quotedTable) set \(assignments.joined(separator: ", "))
                where \(Self.sqlName(user)) = \(DraftStandInUser.privilegeHolder.sqlValue);
              exception when others then
                raise notice 'plan draft: no shown row for \(table.replacingOccurrences(of: "'", with: "''")): %', sqlerrm;
              end;
            """
    }

    /// ` and not exists (...)` for a table the sign-up trigger fills whose user column
    /// (`auth_user_id`, given as `u.id`) no key keeps to one row per user: the user's
    /// row is there, and `on conflict do nothing` kept nothing out. (A second app-user
    /// row per persona got the setup's organisations, while the app's own helper read
    /// the trigger's row: 96 of 533 probes unprobed; round thirty-nine.) Else nothing.
    private func rowMadeAtSignUp(_ table: String, _ quotedTable: String, row: [(column: String, expression: String)]) -> String {
        guard catalog.signUpTriggersName(table), !signUpGivesAConstant(table),
              let user = (catalog.columns[table] ?? []).first(where: { column in
                  column.referencesAUser && !column.unique && row.contains {
                      $0.column == column.name && setupValue($0, table: table, quotedTable: quotedTable) == "u.id"
                  }
              }) else { return "" }
        return " and not exists (select 1 from \(quotedTable) made where made.\(Self.sqlName(user.name)) = u.id)"
    }

    /// Whether the sign-up trigger's insert into `table` gives a column a constant
    /// (`values (new.id, new.id, true)`: a personal account, of a kind the setup's own
    /// team account is not), so the setup's row is another row, wanted beside it.
    private func signUpGivesAConstant(_ table: String) -> Bool {
        let body = catalog.signUpTriggerBodies
        let pattern = #"insert\s+into\s+"# + Self.namePattern(of: table) + #"\s*\([^)]*\)\s*values\s*\("#
        guard let regex = try? Regex(pattern) else { return false }
        return body.ranges(of: regex).contains { range in
            Self.topLevelValues(body[range.upperBound...]).contains { value in
                value.wholeMatch(of: /true|false|'[^']*'(::\w+)?|-?\d+(\.\d+)?/) != nil
            }
        }
    }

    /// The values of a list (`text` starts after its opening parenthesis), split at its
    /// top-level commas, up to the parenthesis that closes it; trimmed.
    static func topLevelValues(_ text: Substring) -> [String] {
        var depth = 0, inLiteral = false, values: [String] = [], value = ""
        for character in text {
            if inLiteral {
                if character == "'" { inLiteral = false }
            } else if character == "'" {
                inLiteral = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                if depth == 0 { break }
                depth -= 1
            } else if character == ",", depth == 0 {
                values.append(value.trimmingCharacters(in: .whitespacesAndNewlines))
                value = ""
                continue
            }
            value.append(character)
        }
        values.append(value.trimmingCharacters(in: .whitespacesAndNewlines))
        return values
    }

    /// The end of a setup insert: `on conflict do nothing`, a row already there kept;
    /// nothing where the table refuses an ON CONFLICT clause (insert or update rules:
    /// 0A000; a deferrable unique constraint: the setup failed, the table had no rows,
    /// and its `using (true)` read went unseen). A user's own row that names the user's
    /// group (`userRowsGroupColumn`) is usually there already, made by the sign-up
    /// trigger with no group: it gets the persona's group where it has none.
    func onConflict(_ table: String) -> String {
        if catalog.tablesRefusingOnConflict.contains(table) { return ";" }
        let groups = userRowsGroupColumns(of: table).map(Self.sqlName)
        guard !groups.isEmpty, let user = membershipColumns(of: table)?.userColumn else {
            return "on conflict do nothing;"
        }
        let name = Self.sqlName(String(table.split(separator: ".", maxSplits: 1).last ?? ""))
        guard groups.count > 1 else {
            return "on conflict (\(Self.sqlName(user))) do update set \(groups[0]) = excluded.\(groups[0]) "
                + "where \(name).\(groups[0]) is null;"
        }
        // Each group the row has none of, the others kept as the sign-up made them.
        return "on conflict (\(Self.sqlName(user))) do update set "
            + groups.map { "\($0) = coalesce(\(name).\($0), excluded.\($0))" }.joined(separator: ", ")
            + " where " + groups.map { "\(name).\($0) is null" }.joined(separator: " or ") + ";"
    }

    /// The column of `table`, one row per user (its user column unique by itself:
    /// `profiles.id`), that names the user's group for other tables' rules
    /// (`membershipColumns`: `profiles.company_id -> companies`, read by
    /// `is_company_member(id)`); nil for a membership table with a row per user and
    /// group, whose rows the setup inserts as they are.
    func userRowsGroupColumn(of table: String) -> String? {
        guard let membership = membershipColumns(of: table),
              let user = catalog.columns[table]?.first(where: { $0.name == membership.userColumn }), user.uniqueAlone
        else { return nil }
        return membership.rowColumn
    }

    /// `userRowsGroupColumn`, and the row's other keys to another table that a function
    /// the policies call reads beside the table (`profiles.employee_id` behind
    /// `my_employee_id()`: `select employee_id from profiles where id = auth.uid()`).
    /// Left NULL beside a required `organization_id`, no persona was an employee, and an
    /// HR app's 126 employee cells were unprobed (round thirty-seven).
    func userRowsGroupColumns(of table: String) -> [String] {
        guard let first = userRowsGroupColumn(of: table) else { return [] }
        let bare = Self.bareName(of: table).lowercased()
        let bodies = catalog.policyHelperBodies.values.joined().filter { $0.contains(bare) }
        let others = (catalog.columns[table] ?? []).filter { column in
            column.name != first && column.writable
                && column.reference.map { $0.table != "auth.users" && $0.table != table } == true
                && bodies.contains { $0.range(of: #"(?<![\w"])"# + NSRegularExpression.escapedPattern(for: column.name.lowercased()) + #"(?![\w"])"#,
                                              options: .regularExpression) != nil }
        }.map(\.name)
        return [first] + others
    }

    /// The first foreign key of `table` to another table (not `auth.users`) that
    /// `ownerOf` gives an owner column: its column, that table, the key it references,
    /// and the owner column (`board_settings.board_id -> boards (id)`, `owner_id`).
    func ownedParent(of table: String, ownerOf: (String) -> String?)
        -> (column: String, table: String, key: String, owner: String)?
    {
        for column in catalog.columns[table] ?? [] {
            guard let reference = column.reference, reference.table != table, reference.table != "auth.users",
                  let owner = ownerOf(reference.table) else { continue }
            return (column.name, reference.table, reference.column, owner)
        }
        return nil
    }

    /// Whether a table with rows per persona has a foreign key into `table`.
    private func isParentOfPersonaRows(_ table: String) -> Bool {
        catalog.columns.contains { other, columns in
            other != table && columns.contains { $0.reference?.table == table }
                && (ownerRule(of: other) != nil || linksRowsForOtherPolicies(other))
        }
    }

    /// Whether `table` has no owner rule and a foreign key another table's policies read.
    func linksRowsForOtherPolicies(_ table: String) -> Bool {
        ownerRule(of: table) == nil && (catalog.columns[table] ?? []).contains(where: \.linksRowsForOtherPolicies)
    }

    /// The role a persona holds in a group it made, in the setup: `'owner'` where the
    /// membership's role may be that (`members.role in ('owner', 'member')`, the group's
    /// `owner_id` the persona), as the app's own RPC makes the creator. As a 'member' of
    /// its own workspace, with no owner there, the other persona's 'owner' insert broke
    /// no `unique (workspace_id) where role = 'owner'`, and a constraint trigger that
    /// wants each workspace's owner as a member would have refused the setup at commit:
    /// "may give themselves role 'owner'" was made up.
    private func ownGroupsOwnerRole(_ table: String, _ column: DraftCatalog.Column) -> String? {
        guard column.holdsRole, let membership = membershipColumns(of: table),
              ownerColumn(of: membership.parent) ?? creatorColumn(of: membership.parent) != nil else { return nil }
        return (column.labels + (column.allowedValues ?? [])).first { $0.lowercased() == "owner" }
    }

    /// The role column of `table`'s setup row every value of which the project's access
    /// rules name (`DraftSingledOutValues`), with those values: a persona given any of
    /// them would be what the rules single out, where a fresh sign-up has no such row.
    /// Not a membership's role in a group the persona owns (`members (workspace_id ->
    /// workspaces (owner_id), user_id, role in ('owner', 'member'))`): the setup puts
    /// the persona in its own workspace, as the app's `create_workspace` does, which
    /// singles it out nowhere else. (With no row, every table behind `is_member()` had
    /// no row to probe, and a `using (true)` read of them went unseen.)
    func singledOutRoleColumn(of table: String) -> (column: String, values: [String])? {
        singledOutRoleColumn(of: table, setupSample: sample(of: table, inSetup: true))
    }

    /// As `singledOutRoleColumn(of:)`, given the table's setup sample.
    private func singledOutRoleColumn(of table: String, setupSample: [(column: String, expression: String)])
        -> (column: String, values: [String])?
    {
        let row = Set(setupSample.map(\.column))
        guard let column = catalog.columns[table]?.first(where: { $0.everyValueSingledOut && row.contains($0.name) })
        else { return nil }
        if let membership = membershipColumns(of: table),
           ownerColumn(of: membership.parent) ?? creatorColumn(of: membership.parent) != nil { return nil }
        let keys = column.reference.flatMap { catalog.singledOut.keys["\($0.table)|\($0.column)"] }
        return (column.name, keys ?? (column.labels.isEmpty ? column.allowedValues ?? [] : column.labels))
    }

    /// Whether only the user who is no persona gets rows of `table` in the setup: a row
    /// is a privilege (`grantsByItsRows`), or makes its user privileged (`promotedByItsTrigger`).
    /// Or its rows must name such a row (`namesARowOnlyTheHolderHas`).
    func heldByThePrivilegeHolder(_ table: String) -> Bool {
        heldByThePrivilegeHolderAlone(table) || namesARowOnlyTheHolderHas(table) != nil
    }

    /// `heldByThePrivilegeHolder` for the table's own rows: a row is a privilege, makes
    /// its user privileged, or holds a role every value of which the rules single out
    /// (`singledOutRoleColumn`; the personas got no row there, and no one else did
    /// either: a clinic's `profiles`, and every table keyed by it, had no row to probe,
    /// even for the service role; round thirty-seven).
    /// A table the sign-up trigger inserts into is not held alone for its role column:
    /// each persona has its row from its sign-up (`coalesce(... ->> 'role', 'client')`: a
    /// photo marketplace's profiles, and every table keyed by them, were the stand-in's
    /// only; round forty-one).
    private func heldByThePrivilegeHolderAlone(_ table: String) -> Bool {
        grantsByItsRows(table) || promotedByItsTrigger(table) != nil
            || (singledOutRoleColumn(of: table) != nil && !Self.inserts(into: table, in: catalog.signUpTriggerBodies))
    }

    /// The required column of `table` naming its user through a table only the user who
    /// is no persona has rows in (`records.therapist_id -> profiles.id`, where no persona
    /// has a profile), and that table: a persona's row there would name a row no persona
    /// has, so only that user's can be made. (The personas' rows were refused by the
    /// foreign key, and the table had none; round thirty-seven.)
    func namesARowOnlyTheHolderHas(_ table: String) -> (column: String, table: String)? {
        for column in catalog.columns[table] ?? [] where column.required {
            if let keyed = userKeyedTable(of: column), keyed != "auth.users", keyed != table,
               heldByThePrivilegeHolderAlone(keyed) {
                return (column.name, keyed)
            }
        }
        return nil
    }

    /// The table whose role column (`Column.holdsRole`: `user_roles.role_id`, or any
    /// column of a table that says who a user is) a trigger of `table` updates, if any: a
    /// row of `table` changes what its user is (`store_admins`, whose insert trigger sets
    /// the user's role to 'admin'). The setup gave each persona such a row, so every
    /// cell described an administrator ("may insert every row" on a donations app's
    /// tables, 16 made-up DANGERs), while a fresh sign-up is an ordinary user. Not a
    /// table naming two users (`matches (user1_id, user2_id, active)`, which a like's
    /// trigger activates): its row is about a pair, not what one user is (likes were
    /// given to no persona, and a dating app's likes and messages went unprobed).
    func promotedByItsTrigger(_ table: String) -> String? {
        tablesNamedByTriggers(of: table).first { other, bodies in
            guard let columns = catalog.columns[other], columns.contains(where: \.holdsRole),
                  columns.filter({ userKeyedTable(of: $0) != nil }).count < 2 else { return false }
            let pattern = #"\bupdate\s+(?:only\s+)?"# + Self.namePattern(of: other) + #"\s+(?:\w+\s+)?set\s+(.*?)(?:\bwhere\b|;|$)"#
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return false }
            return bodies.contains { body in
                regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).contains { match in
                    guard let range = Range(match.range(at: 1), in: body) else { return false }
                    let assigned = Self.assignedColumns(body[range], leavingOutCounters: true)
                    return columns.contains { $0.holdsRole && assigned.contains($0.name.lowercased()) }
                }
            }
        }?.table
    }

    /// The columns an UPDATE's SET list assigns (`role = 'admin', updated_at = now()`).
    /// `leavingOutCounters`: not those assigned from themselves (`remaining = remaining -
    /// new.qty`, a count a usage draws on, is no privilege its row grants: usages were
    /// given to no persona, and a move of one into another user's stock went unseen;
    /// round thirty-four).
    static func assignedColumns(_ list: Substring, leavingOutCounters: Bool = false) -> Set<String> {
        let regex = try? NSRegularExpression(pattern: #"(?:^|,)\s*"?([a-z_][a-z0-9_$]*)"?\s*=([^,]*)"#)
        let text = String(list)
        var counted = false
        let names = Set<String>((regex?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []).compactMap { match -> String? in
            guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { return nil }
            // (Quotes read away: `"remaining_items" = "remaining_items" - new.quantity`.)
            if leavingOutCounters, let value = Range(match.range(at: 2), in: text),
               text[value].replacingOccurrences(of: "\"", with: "").range(
                   of: #"(?<![\w.])"# + NSRegularExpression.escapedPattern(for: name) + #"(?!\w)"#, options: .regularExpression) != nil {
                counted = true
            }
            return name
        })
        // A statement keeping a count is bookkeeping, the flags it derives from the count
        // with it too (`is_depleted = remaining_items - new.quantity <= 0`).
        return leavingOutCounters && counted ? [] : names
    }

    /// Why the setup gives the personas no row of `table` when it gives none on purpose.
    func setupSkipReason(of table: String) -> String? {
        if let attribute = promotedByItsTrigger(table) {
            return "the draft gives the personas no row here: a trigger on \(table) updates \(attribute), which the "
                + "project's rules read to say who a user is, so a row would make the persona what they single out, which "
                + "a fresh sign-up is not; the setup gives one to someone who is no persona "
                + "(\(DraftStandInUser.privilegeHolder.email)); add one in setup to plan for a persona with it"
        }
        if grantsByItsRows(table) {
            let shape = namesOnlyUsers(table) ? "names a user and nothing else" : "is what another table's policy asks a user to have"
            return "the draft gives the personas no row here: a row of \(table) \(shape), other tables' "
                + "policies read it (directly or through a function), and no signed-in user may add one: it is a privilege "
                + "someone else grants, which a fresh sign-up lacks; the setup gives it to someone who is no persona "
                + "(\(DraftStandInUser.privilegeHolder.email)); add one in setup to plan for a persona with it"
        }
        if let role = singledOutRoleColumn(of: table) {
            return "the draft gives the personas no row here: every value of \(role.column) (\(role.values.joined(separator: ", "))) "
                + "is named by the project's policies or functions, and a fresh sign-up has no such row; the setup gives "
                + "one to someone who is no persona (\(DraftStandInUser.privilegeHolder.email)); add one in setup "
                + "to plan for such a user"
        }
        guard let named = namesARowOnlyTheHolderHas(table) else { return nil }
        return "the draft gives the personas no row here: its \(named.column) names a row of \(named.table), which no "
            + "persona has; the setup gives one to someone who is no persona (\(DraftStandInUser.privilegeHolder.email)); "
            + "add rows for the personas in setup to plan their own"
    }

    /// Whether a row of `table` is itself a privilege (`staff (user_id)` behind
    /// `is_staff()`): it names a user and nothing else (`namesOnlyUsers`), other tables'
    /// policies read it, and no signed-in user may add one. A row per persona made both
    /// personas staff, and every table behind `is_staff()` a made-up DANGER. (A profile
    /// with a flag, `is_admin boolean default false`, says more than who the user is.)
    ///
    /// So is a row of any shape whose mere existence another table's policy asks for,
    /// in an expression that reads no column of its own table (`exists (select 1 from
    /// moderation_actions m where m.moderator_id = auth.uid())` on `reports`), when no
    /// column of it names a role or a flag and the sign-up does not make one: a row per
    /// persona made both personas moderators, and `reports` a made-up DANGER.
    func grantsByItsRows(_ table: String) -> Bool {
        let columns = catalog.columns[table] ?? []
        guard columns.contains(where: \.referencesAUser), catalog.tablesReadByOtherTablesPolicies.contains(table),
              !catalog.tablesSignedInMayInsert.contains(table) else { return false }
        return namesOnlyUsers(table) || askedForByExistence(table) || listsPrivilegedUsers(table)
    }

    /// Whether `table` is a list of privileged users: one row per user (its user column
    /// unique alone), read by a policy helper that reads the signed-in user
    /// (`is_platform_admin()`: `exists (select 1 from admin_users where user_id =
    /// auth.uid() and revoked_at is null)`), no value of it compared by the rules (its
    /// `role` default 'moderator' is read by no one), no key to another table (a
    /// profile's `school_id` says which school, not whether), and no sign-up trigger
    /// filling it: the row itself is the privilege. (The setup put both personas in
    /// `admin_users`, and "sees other users' rows" was a made-up DANGER.) A role whose
    /// every value the rules name is `singledOutRoleColumn`'s.
    private func listsPrivilegedUsers(_ table: String) -> Bool {
        let columns = catalog.columns[table] ?? []
        return catalog.singledOut.attributeTables.contains(table)
            && columns.contains { $0.referencesAUser && $0.uniqueAlone }
            && !columns.contains { ($0.reference != nil && !$0.referencesAUser) || $0.everyValueSingledOut }
            && !columns.contains { catalog.singledOut.comparedWith[$0.name] != nil }
            && !catalog.signUpTriggersName(table)
    }

    /// Whether a row of `table` names a user and nothing else (its other columns are
    /// generated, name users too, or are a key or a time that a default fills).
    private func namesOnlyUsers(_ table: String) -> Bool {
        (catalog.columns[table] ?? []).allSatisfy { column in
            column.referencesAUser || !column.writable
                || (column.defaultExpression != nil && (column.uniqueAlone || column.category == "D"))
        }
    }

    /// Whether a policy of another table asks only that a row of `table` exist (see
    /// `grantsByItsRows`): in one of its expressions that read no column of their own
    /// table, with no column of `table` holding a role or a flag, and no trigger of the
    /// sign-up writing to it.
    private func askedForByExistence(_ table: String) -> Bool {
        let columns = catalog.columns[table] ?? []
        let flagOrRole = { (column: DraftCatalog.Column) in
            column.category == "B" || DraftSingledOutValues.namesARole(column: column.name, type: column.typeName)
        }
        guard !columns.contains(where: flagOrRole),
              !catalog.signUpTriggersName(table) else { return false }
        return catalog.policyExpressions.contains { other, expressions in
            other != table && expressions.contains { expression in
                catalog.rowlessExpressions.contains(expression) && expression.lowercased().contains(" " + table.lowercased() + " ")
            }
        }
    }

    /// Where a setup value names the persona's place among the signed-in personas (0,
    /// 1, ...), replaced by the query that counts it (`setupRows`), or by 0 (`unownedRow`).
    static let personaIndex = "pgwarden_persona_index"

    /// A sample value in a persona's setup row (`u` is the persona's `auth.users` row):
    /// a column of a unique key gets a value of its own per persona, so both rows fit.
    func setupValue(_ entry: (column: String, expression: String), table: String, quotedTable: String) -> String {
        let column = catalog.columns[table]?.first(where: { $0.name == entry.column })
        if let column, entry.expression == value(for: column, inSetup: true),
           let distinct = DraftDistinctValue.expression(for: column, quotedTable: quotedTable) {
            return distinct
        }
        // Any other number differs per user too: a key that is not declared unique often
        // is one. Not a role's number (`memberships.role int`): ben's 13 outranked every
        // member the rules compare it with (`my_role > their_role`), a made-up DANGER.
        if entry.expression == "1", column?.holdsRole != true {
            return "(select count(*) from \(quotedTable)) + \(DraftDistinctValue.personaNumber)"
        }
        return entry.expression.replacingOccurrences(of: "auth.uid()", with: "u.id").replacingOccurrences(of: "auth.email()", with: "u.email")
    }

    /// (A user column gets the first persona's id: the admin has no auth.uid().)
    private func unownedRow(_ table: String, _ quotedTable: String, _ sample: [(column: String, expression: String)],
                            userEmail: String) -> String {
        let user = "(select u.id from auth.users u where u.email = \(Self.literal(userEmail)))"
        // User columns whose default is auth.uid() would be NULL for the admin.
        let userColumns = (catalog.columns[table] ?? []).filter { column in
            (column.reference?.table == "auth.users" || column.defaultsToSignedInUser) && !sample.contains { $0.column == column.name }
        }
        let flags = rowShowingFlags(of: table)
        let unhidden = sample + userColumns.map { ($0.name, "auth.uid()") }
        let row = Self.setting(flags, in: unhidden, to: \.hidden)
        let columns = row.map { Self.sqlName($0.column) }.joined(separator: ", ")
        // The n-th row's values: a unique key's sample differs per row (the shown row
        // repeated the first's `'Draft slug'`, and its ON CONFLICT dropped it unsaid).
        let admins = { (entries: [(column: String, expression: String)], number: Int) in
            entries.map { entry in
                let column = self.catalog.columns[table]?.first { $0.name == entry.column }
                let distinct = column.flatMap { column in
                    entry.expression == self.value(for: column, inSetup: true)
                        ? DraftDistinctValue.expression(for: column, quotedTable: quotedTable) : nil
                }
                return (distinct?.replacingOccurrences(of: DraftDistinctValue.personaNumber, with: String(number)) ?? entry.expression)
                    .replacingOccurrences(of: "auth.uid()", with: user).replacingOccurrences(of: Self.personaIndex, with: "0")
            }
        }
        let values = admins(row, 1)
        // With a flag that shows rows, a second row that it shows, when the first was made.
        let shown = flags.isEmpty ? "" : "\n  if found then"
            + extraRow(table, quotedTable, columns: columns, values: admins(Self.setting(flags, in: unhidden, to: \.shown), 2), from: "")
                .replacingOccurrences(of: "\n  ", with: "\n    ") + "\n  end if;"
        // A trigger that reads the signed-in user sees the first persona, whose row it is.
        let signedIn = catalog.tablesWithUserReadingTriggers.contains(table)
        return """
            do $draft$\(signedIn ? "\ndeclare claims text := current_setting('request.jwt.claims', true);" : "")
            begin\(signedIn ? "\n  " + Self.signInStatement(email: userEmail) : "")
              insert into \(quotedTable) (\(columns))
              select \(values.joined(separator: ", ")) where not exists (select 1 from \(quotedTable))
              \(onConflict(table))\(shown)\(signedIn ? "\n  perform set_config('request.jwt.claims', coalesce(claims, ''), true);" : "")
            exception when others then
              raise notice 'plan draft: no rows for \(table.replacingOccurrences(of: "'", with: "''")): %', sqlerrm;
            end $draft$
            """
    }
}
