import Foundation
import WardenPostgres

/// Arguments that name rows of the tables a function's parameters are named for: rows
/// that exist (a key that breaks a foreign key proves nothing), and the rows that join
/// the caller to another user's (`FunctionCallProbe.run` tries them).

extension FunctionCallProbe {
    /// Arguments joining the caller to another user's row, where the function takes
    /// both a user and a row of a table: `add_thread_member(p_thread_id, p_user_id)`,
    /// allowed when `auth.uid() = p_user_id`, let any user join any thread and read it,
    /// while every probe gave both parameters the other user's id, and the guard said no.
    /// A uuid parameter named for a user (`p_user_id`, `uid`) gets the caller's own id;
    /// one named for a table (`p_thread_id`: `threads`) the key of a row of it that names
    /// the other persona and that the caller cannot read; the others simple values. nil
    /// without such a pair, or when the caller can read that row (liking a post everyone
    /// reads is the app working).
    func selfJoinArguments(_ parameters: [Parameter], as persona: String, body: String) throws -> SelfJoin? {
        guard let own = context.userIDs[persona], let ownership,
              let other = context.plan.personas.first(where: { $0.user != nil && $0.name != persona }),
              let otherID = context.userIDs[other.name],
              parameters.contains(where: { $0.type == "uuid" && Self.namesAUser($0.name) }) else { return nil }
        var values: [Argument] = []
        var joined: (table: String, shown: String)?
        for parameter in parameters {
            if parameter.type == "uuid", Self.namesAUser(parameter.name) {
                values.append(Argument(sql: "'\(own)'", shown: "\(persona)'s id"))
            } else if parameter.type == "uuid", joined == nil,
                      let named = Self.table(namedBy: parameter.name, in: ownership),
                      let id = try rowOf(otherID, in: named, ownership: ownership),
                      try !canRead(named.table, key: named.key, id: id, as: persona) {
                joined = (named.catalogName, "\(other.name)'s \(named.catalogName) row")
                values.append(Argument(sql: "'\(id)'", shown: "\(other.name)'s \(named.catalogName) row"))
            } else {
                values.append(simpleValue(parameter, user: nil, body: body))
            }
        }
        return joined.map { SelfJoin(values: values, table: $0.table) }
    }

    /// Arguments where each uuid or text parameter named for a table (`_organization_id`:
    /// `organizations`; `_plan_id text`: `plans (id text)`) gets a row of it that exists,
    /// by a key of its type: one naming `user` (another user's, as anyone who has seen
    /// an id can pass it) where there is one, else the first; the others as
    /// `simpleValue` gives them. nil when no parameter names a table with a row. (With a
    /// user's id there, anon's call that rewrote any organisation's billing broke the
    /// foreign key, and lint called it a WARN; with 'pgwarden' for a plan's text key,
    /// anon switching any organisation's plan was "no such plan", a WARN.)
    /// An array of such keys (`contract_ids uuid[]`) gets an array of that one row's
    /// key (given `[ava's id]`, anon reading any private contract by its id was "changed
    /// nothing", a WARN; round thirty-seven).
    func tableRowArguments(_ parameters: [Parameter], user: (id: String, owner: String)?, body: String) throws -> [Argument]? {
        guard let ownership else { return nil }
        var found = false
        let values = try parameters.map { parameter -> Argument in
            let element = parameter.category == "A" && !parameter.isVariadic
                ? parameter.element.map { Parameter(name: parameter.name, type: $0.type, category: $0.category, isVariadic: false) } : nil
            guard let keyType = Self.keyType(of: element ?? parameter), !Self.namesAUser(parameter.name),
                  let named = Self.table(namedBy: parameter.name, in: ownership, needsUser: false, keyType: keyType, body: body) else {
                return simpleValue(parameter, user: user, body: body)
            }
            let naming = {
                try user.flatMap { user in
                    try named.user.flatMap { column in
                        try context.connection.query(
                            "select \(raw: named.key)::text from \(raw: named.table) where \(raw: column) = \(user.id)::uuid order by ctid limit 1"
                        ).scalar.map { ($0, "\(user.owner)'s \(named.catalogName) row") }
                    }
                }
            }
            let first = {
                try context.connection.query("select \(raw: named.key)::text from \(raw: named.table) order by ctid limit 1").scalar
            }
            var namingRow = try naming()
            // Rows made here name the users too: the other user's is the one to pass
            // (the first by position was the caller's own, and the call proved nothing).
            if namingRow == nil, try first() == nil {
                try makeRows(named, ownership: ownership, body: body)
                namingRow = try naming()
            }
            guard let (id, shown) = try namingRow ?? first().map({ ($0, "a \(named.catalogName) row") })
            else { return simpleValue(parameter, user: user, body: body) }
            found = true
            let literal = DraftOwnership.literal(id)
            return element == nil ? Argument(sql: literal, shown: shown) : Argument(sql: "array[\(literal)]", shown: "[\(shown)]")
        }
        return found ? values : nil
    }

    /// The catalog's name of the key type a parameter may name a row by (`pg_type.typname`:
    /// uuid, text, varchar; an integer one where its name ends in `id`, `p_score_id`, not
    /// `p_score`, a number to write); nil for any other type. (Called with 1, anon
    /// rewriting any student's score stayed "changed nothing", a WARN: an LMS's
    /// `override_score(p_score_id integer, ...)`, round thirty-four.)
    static func keyType(of parameter: Parameter) -> String? {
        if let integer = ["integer": "int4", "bigint": "int8", "smallint": "int2"][parameter.type] {
            let name = unprefixed(parameter.name)
            return name.hasSuffix("id") || name.hasSuffix("ids") ? integer : nil
        }
        return ["uuid": "uuid", "text": "text", "character varying": "varchar"][parameter.type]
    }

    /// Whether a key column of type `typeName` takes a parameter of key type `keyType`:
    /// the same type, or any two integers (a `bigint` parameter naming a `serial` key:
    /// with only `int8` keys looked for, anon booking in any user's name was called with
    /// a car that does not exist, 23503, a WARN; round thirty-eight).
    static func keyTypeMatches(_ typeName: String, _ keyType: String) -> Bool {
        let integers: Set<String> = ["int2", "int4", "int8"]
        return typeName == keyType || (integers.contains(typeName) && integers.contains(keyType))
    }

    /// Arguments that join the caller to a row of `table` it cannot read.
    struct SelfJoin {
        let values: [Argument]
        let table: String
    }

    /// The key of a row of `named` whose user is `user`; where there is none, the
    /// personas are given rows as `plan draft`'s setup gives them (in this rolled-back
    /// run), and one of those.
    private func rowOf(_ user: String, in named: NamedTable, ownership: DraftOwnership) throws -> String? {
        guard let column = named.user else { return nil }
        let find = {
            try context.connection.query(
                "select \(raw: named.key)::text from \(raw: named.table) where \(raw: column) = \(user)::uuid order by ctid limit 1"
            ).scalar
        }
        if let found = try find() { return found }
        try makeRows(named, ownership: ownership)
        return try find()
    }

    /// Gives `named` the rows `plan draft`'s setup would (in this rolled-back run), and
    /// its membership tables theirs (`members (team_id, user_id)` for `teams`): a team no
    /// one belonged to showed nothing of its members, and anon's call listing any team's
    /// e-mails, given a team's id, stayed a WARN. So do the tables `body` names whose
    /// rows point at `named` (`expenses.group_id -> groups`, summed by a report): an
    /// empty group's total was NULL, and anon reading any group's spending stayed a WARN.
    private func makeRows(_ named: NamedTable, ownership: DraftOwnership, body: String = "") throws {
        let emails = context.plan.personas.compactMap { $0.user?.email }
        // First the empty tables its rows must point at (`payouts.member_id not null ->
        // members`): with no member, no payout could be made, and anon paying out any
        // commission stayed a WARN (an affiliate shop).
        try makeParentRows(of: named.catalogName, ownership: ownership, emails: emails, depth: 2)
        guard let sql = ownership.setupRows(table: named.catalogName, quotedTable: named.table, emails: emails) else { return }
        guard try context.makeSetupRows(sql) else { return }
        let lowered = body.lowercased()
        for (table, columns) in ownership.catalog.columns.sorted(by: { $0.key < $1.key }) where table != named.catalogName {
            let member = ownership.membershipColumns(of: table)?.parent == named.catalogName
            let child = columns.contains { $0.reference?.table == named.catalogName }
                && lowered.range(of: DraftOwnership.namePattern(of: table), options: .regularExpression) != nil
            guard member || child,
                  let rows = ownership.setupRows(table: table, quotedTable: Self.quoted(table), emails: emails) else { continue }
            try context.makeSetupRows(rows)
        }
    }

    /// Rows, as `plan draft`'s setup makes them, for each empty table a NOT NULL foreign
    /// key of `table` references, theirs first, up to `depth` tables up.
    private func makeParentRows(of table: String, ownership: DraftOwnership, emails: [String], depth: Int) throws {
        guard depth > 0 else { return }
        let parents = (ownership.catalog.columns[table] ?? []).compactMap { column -> String? in
            guard column.notNull, let parent = column.reference?.table, parent != table, parent != "auth.users",
                  ownership.catalog.columns[parent] != nil else { return nil }
            return parent
        }
        for parent in Set(parents).sorted() {
            let quoted = Self.quoted(parent)
            guard try context.connection.query("select not exists (select 1 from \(raw: quoted))").scalar == "t" else { continue }
            try makeParentRows(of: parent, ownership: ownership, emails: emails, depth: depth - 1)
            if let rows = ownership.setupRows(table: parent, quotedTable: quoted, emails: emails) {
                try context.makeSetupRows(rows)
            }
        }
    }

    /// A table a parameter names: quoted, as the catalog names it, its key column and
    /// the column naming its user (both quoted).
    struct NamedTable {
        let table: String
        let catalogName: String
        let key: String
        /// The column naming its user (nil: none, where `table(namedBy:needsUser:)` allowed it).
        let user: String?
    }

    /// Whether `persona` reads the row of `table` whose `key` is `id`.
    private func canRead(_ table: String, key: String, id: String, as persona: String) throws -> Bool {
        let outcome = try context.asPersona(
            persona, "GET", on: finding, "select count(*)::text from \(table) where \(key) = '\(id)'::uuid")
        if case .rows(let rows) = outcome { return rows.first?.first.flatMap { $0 } != "0" }
        return false
    }

    /// Whether a parameter takes a user's id: a uuid named for a user (`user_uuid`).
    static func takesAUsersID(_ parameter: Parameter) -> Bool {
        namesAUser(parameter.name) && parameter.type == "uuid"
    }

    /// Whether a parameter's name names a user (`p_user_id`, `target_user`, `uid`).
    static func namesAUser(_ name: String) -> Bool {
        let bare = bareName(name)
        return bare.contains("user") || bare == "uid" || bare == "profile"
    }

    /// The table a parameter's name names (`p_thread_id` -> `threads`), quoted, with its
    /// key column and the column naming its user; nil when none does.
    static func table(namedBy name: String, in ownership: DraftOwnership, needsUser: Bool = true,
                      keyType: String = "uuid", body: String = "") -> NamedTable? {
        let bare = bareName(name)
        guard !bare.isEmpty else { return nil }
        // Then by its first word (`store_to_manage_id`: `stores`).
        let first = bare.split(separator: "_").first.map(String.init) ?? bare
        let words = first == bare ? [bare] : [bare, first]
        for candidate in words.flatMap({ [$0, $0 + "s", $0 + "es"] }) {
            for (table, columns) in ownership.catalog.columns.sorted(by: { $0.key < $1.key })
            where table.split(separator: ".").last.map(String.init) == candidate {
                guard let key = columns.first(where: { $0.name == "id" && Self.keyTypeMatches($0.typeName, keyType) })?.name
                        ?? columns.first(where: { $0.uniqueAlone && Self.keyTypeMatches($0.typeName, keyType) })?.name,
                      let named = named(table, key: key, in: ownership, needsUser: needsUser) else { continue }
                return named
            }
        }
        return table(referencedByColumnsNamedLike: name, in: ownership, needsUser: needsUser, keyType: keyType)
            ?? table(keyedByAColumnNamedLike: name, in: ownership, needsUser: needsUser, keyType: keyType)
            ?? table(endingInTheWordOf: name, in: ownership, needsUser: needsUser, keyType: keyType, body: body)
            ?? table(filteredBy: name, in: ownership, needsUser: needsUser, keyType: keyType, body: body)
    }

    /// The table whose rows `body` picks by the parameter as their key (`update
    /// promo_codes set ... where id = promo_id`, `from promo_codes p where p.id =
    /// promo_id`); nil when it picks none, or no such table has rows' keys of `keyType`.
    /// (Called with a user's id, anon using up any promo code was "changed nothing", a
    /// WARN: an AI app, round thirty-eight.)
    private static func table(
        filteredBy name: String, in ownership: DraftOwnership, needsUser: Bool, keyType: String, body: String
    ) -> NamedTable? {
        for (table, column) in tablesPicked(by: name, body: body) {
            // Its key, or for a text the column it is compared with (`where lower(c.email)
            // = lower(p_email)`: an e-mail a row holds, where ava's and 'pgwarden' matched
            // none, and anon reading any shop's customers was a WARN; round thirty-eight).
            // Not a secret's column (a code, a token, a key): a caller knowing it is the
            // one it is for (an invitation's code check answering with its course).
            let text = ["text", "varchar"].contains(keyType) && !namesASecret(column)
            guard column == "id" || text, let columns = ownership.catalog.columns[table],
                  let key = columns.first(where: { $0.name == column && Self.keyTypeMatches($0.typeName, keyType) })?.name,
                  let named = named(table, key: key, in: ownership, needsUser: needsUser) else { continue }
            return named
        }
        return nil
    }

    /// Whether a column's name says it holds a secret: one of its words (split at `_`)
    /// is, or ends in, a code, a token, a key, a hash, a password, a one-time password or
    /// a PIN (`invite_code`, `passcode`, `api_key`, `pin`). By words, not substrings:
    /// `shipping_email` holds no PIN, and its value was withheld (round thirty-nine).
    static func namesASecret(_ column: String) -> Bool {
        let secrets = ["code", "token", "secret", "key", "hash", "password", "otp", "pin"]
        return column.lowercased().split(separator: "_").contains { word in
            secrets.contains { word.hasSuffix($0) }
        }
    }

    /// The tables whose rows `body` picks by comparing a column with the parameter
    /// `name` (`update promo_codes set ... where id = promo_id`: `public.promo_codes`,
    /// `id`), `schema.table` (public where unqualified) and the column, lowercased.
    static func tablesPicked(by name: String, body: String) -> [(table: String, column: String)] {
        let parameter = NSRegularExpression.escapedPattern(for: name.lowercased())
        let pattern = #"\b(?:update|from|join)\s+(?:"?(\w+)"?\s*\.\s*)?"?(\w+)"?(?:\s+(?:as\s+)?(?!where\b|set\b)\w+)?\s+(?:set\s[^;]*?)?where\s[^;]*?(?:\w+\()?(?:\w+\.)?(\w+)\)?\s*=\s*(?:\w+\()?"#
            + parameter + #"(?![\w"])"#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        let text = body.lowercased()
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let table = Range(match.range(at: 2), in: text), let column = Range(match.range(at: 3), in: text) else { return nil }
            let schema = Range(match.range(at: 1), in: text).map { String(text[$0]) } ?? "public"
            return ("\(schema).\(text[table])", String(text[column]))
        }
    }

    /// For each parameter naming a user, the tables its body picks rows of by a user
    /// column compared with it (`update profiles set bonus_credits = ... where user_id =
    /// user_uuid`) that have no row of the caller's user get the rows `plan draft`'s
    /// setup gives them; the tables that got them. (With no profile of ava's in lint's
    /// run, anon minting credits for any user was "changed nothing", a WARN: an AI app,
    /// round thirty-eight.)
    func makeRowsOfUsersPicked(by parameters: [Parameter], user: (id: String, owner: String)?, body: String) throws -> [String] {
        guard let ownership, let user else { return [] }
        var made: [String] = []
        for parameter in parameters where Self.takesAUsersID(parameter) {
            for (table, column) in Self.tablesPicked(by: parameter.name, body: body) {
                guard let columns = ownership.catalog.columns[table],
                      columns.contains(where: { $0.name == column && ownership.userKeyedTable(of: $0) != nil }),
                      let key = columns.first(where: { $0.uniqueAlone })?.name ?? columns.first?.name,
                      let named = Self.named(table, key: key, in: ownership, needsUser: false) else { continue }
                let has = try context.connection.query(
                    "select 1 from \(raw: named.table) where \(raw: DraftOwnership.sqlName(column)) = \(user.id)::uuid limit 1").scalar
                guard has == nil else { continue }
                try makeRows(named, ownership: ownership, body: body)
                made.append(named.catalogName)
            }
        }
        return made
    }

    /// The one table whose name's last word is the parameter's (`p_request_id`:
    /// `support_requests`), of those the function's body names where more than one
    /// is; nil when none, or still more than one, is. (Called with ava's id, anon
    /// setting any support request's status through `update_support_request_status`
    /// was a WARN: a services marketplace, round thirty-five.)
    private static func table(
        endingInTheWordOf name: String, in ownership: DraftOwnership, needsUser: Bool, keyType: String, body: String
    ) -> NamedTable? {
        let bare = bareName(name)
        guard !bare.isEmpty, !bare.contains("_") else { return nil }
        let endings = [bare, bare + "s", bare + "es"].map { "_" + $0 }
        var found: [NamedTable] = []
        for (table, columns) in ownership.catalog.columns.sorted(by: { $0.key < $1.key }) {
            let tableName = String(table.split(separator: ".").last ?? "")
            guard endings.contains(where: tableName.hasSuffix),
                  let key = columns.first(where: { $0.name == "id" && Self.keyTypeMatches($0.typeName, keyType) })?.name,
                  let named = named(table, key: key, in: ownership, needsUser: needsUser) else { continue }
            found.append(named)
        }
        if found.count > 1 {
            let lowered = body.lowercased()
            found = found.filter { named in
                let tableName = String(named.catalogName.split(separator: ".").last ?? "")
                return lowered.range(of: #"(?<![\w"])"# + NSRegularExpression.escapedPattern(for: tableName) + #"(?![\w"])"#,
                                     options: .regularExpression) != nil
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The table whose own key column is named as the parameter is (`p_score_id`:
    /// `question_scores (score_id serial primary key)`), by that key; nil when none is.
    private static func table(
        keyedByAColumnNamedLike name: String, in ownership: DraftOwnership, needsUser: Bool, keyType: String
    ) -> NamedTable? {
        let column = unprefixed(name)
        guard column.hasSuffix("id"), column != "id" else { return nil }
        for (table, columns) in ownership.catalog.columns.sorted(by: { $0.key < $1.key }) {
            guard let key = columns.first(where: { $0.name == column && Self.keyTypeMatches($0.typeName, keyType) && $0.uniqueAlone }),
                  let named = named(table, key: key.name, in: ownership, needsUser: needsUser) else { continue }
            return named
        }
        return nil
    }

    /// The table that the project's foreign key columns named as the parameter is
    /// (`p_org_id`: `org_id`, `counters.org_id -> organizations (id)`) reference, by
    /// that referenced uuid key; nil when none does. (An abbreviation names no table:
    /// `allocate_invoice_number(p_org_id)` was called with a user's id, broke the
    /// foreign key, and anon changing any organisation's counter was a WARN.)
    private static func table(
        referencedByColumnsNamedLike name: String, in ownership: DraftOwnership, needsUser: Bool, keyType: String
    ) -> NamedTable? {
        let column = unprefixed(name)
        for (_, columns) in ownership.catalog.columns.sorted(by: { $0.key < $1.key }) {
            guard let reference = columns.first(where: { $0.name == column && Self.keyTypeMatches($0.typeName, keyType) })?.reference,
                  reference.table != "auth.users",
                  let key = ownership.catalog.columns[reference.table]?.first(where: { $0.name == reference.column }),
                  Self.keyTypeMatches(key.typeName, keyType), key.uniqueAlone,
                  let named = named(reference.table, key: key.name, in: ownership, needsUser: needsUser) else { continue }
            return named
        }
        return nil
    }

    /// `table` (a catalog name) found by a parameter's name, by its `key` column, with
    /// the column naming its user (its owner column, else its user column); nil where it
    /// has none and `needsUser`.
    private static func named(_ table: String, key: String, in ownership: DraftOwnership, needsUser: Bool) -> NamedTable? {
        let user = ownership.ownerColumn(of: table) ?? ownership.catalog.userColumns[table]
        guard user != nil || !needsUser else { return nil }
        return NamedTable(table: quoted(table), catalogName: table, key: SQL.quoteIdentifier(key), user: user.map(SQL.quoteIdentifier))
    }

    /// A catalog name (`schema.table`) as SQL names it, each part quoted.
    static func quoted(_ table: String) -> String {
        table.split(separator: ".", maxSplits: 1).map { SQL.quoteIdentifier(String($0)) }.joined(separator: ".")
    }

    /// A parameter's name without its conventional prefix, lowercased.
    private static func unprefixed(_ name: String) -> String {
        var bare = name.lowercased()
        for prefix in ["p_", "in_", "arg_", "_"] where bare.hasPrefix(prefix) { bare.removeFirst(prefix.count) }
        return bare
    }

    /// A parameter's name without its conventional prefix and `id` (or `_ids`) suffix,
    /// lowercased.
    private static func bareName(_ name: String) -> String {
        var bare = unprefixed(name)
        for suffix in ["_ids", "_id", "id"] where bare.hasSuffix(suffix) && bare.count > suffix.count { bare.removeLast(suffix.count) }
        return bare
    }
}
