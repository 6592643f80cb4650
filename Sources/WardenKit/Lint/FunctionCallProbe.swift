import Foundation
import WardenPostgres

/// Calls an exposed security-definer function as a persona, with simple arguments
/// (1; for text the first value its body compares the parameter with, a user's e-mail
/// for a parameter named for one, else 'pgwarden';
/// true; for a uuid, the persona's user id, or for anon a signed-in
/// persona's, as anyone who has seen an id can pass it; NULL for other types;
/// defaulted parameters left out, but for an overloaded name), then, if that fails, with NULL for every argument
/// (and a call that showed nothing again with its defaulted windows and caps widened, `p_hours => 10000`);
/// counts the rows it inserted, updated and deleted per table (`pg_stat_xact_user_tables`,
/// read in the same rolled-back savepoint) and the rows with a value it returned (NULL
/// is no data, and neither is a boolean: a yes or no is what a helper such as
/// is_owner(uuid) or is_handle_free(text) is for, and which way it answered was up to
/// the made-up argument), and reports the call. Proven when it changed rows, or
/// returned data to anon (read from a table). Harmless when a function without
/// arguments went through without that, every call was refused for want of a privilege
/// (42501: the persona may not call it, or the function's own guard said no), or it is
/// a trigger function (0A000: no request can call one). What proves nothing either way
/// is "not probed", never "harmless", and the finding keeps its rule's level: a call
/// that failed for any other reason (our values broke a check, a cast, a lookup), and a
/// call with arguments we made up that changed nothing (`'pgwarden'`, or a user's id
/// where a coupon's is wanted, matches no row; so does `where id = NULL`).
struct FunctionCallProbe {
    let context: ProbeContext
    let finding: LintFinding
    /// Who owns the rows of the tables a call may change (for a signed-in persona's
    /// call: one that changed only the persona's own rows proves nothing).
    var ownership: DraftOwnership? = nil

    struct Parameter {
        /// Its name (empty when it has none).
        var name: String = ""
        var type: String
        var category: String
        var isVariadic: Bool
        /// For an array: its element's type and `pg_type.typcategory`.
        var element: (type: String, category: String)? = nil
    }

    /// One argument of a call: its SQL (nil: NULL) and how the evidence shows it.
    struct Argument: Equatable {
        var sql: String?
        var shown: String
        /// The parameter it is given to by name (`p_hours => 10000`), for a defaulted
        /// parameter given after the positional ones; nil: by position.
        var named: String? = nil

        static let null = Argument(sql: nil, shown: "null")
    }

    /// `arguments` (each with its parameter's type) with every uuid given replaced by
    /// one that names no row; nil when no uuid is given.
    static func withMadeUpIDs(_ arguments: [(type: String, value: Argument)]) -> [Argument]? {
        guard arguments.contains(where: { $0.type == "uuid" && $0.value.sql != nil }) else { return nil }
        return arguments.map { type, value in
            guard type == "uuid", value.sql != nil else { return value }
            var madeUp = value
            madeUp.sql = "'00000000-0000-4000-8000-0000000000ff'"
            return madeUp
        }
    }

    func run(as persona: String) throws -> LintConsequence {
        guard let signature = finding.signature else { return LintConsequence(verdict: .notProbed, evidence: []) }
        let (parameters, windows) = try parametersToGive(signature)
        let function = try context.connection.query(
            "select prorettype::regtype::text, prosrc from pg_proc where oid = to_regprocedure(\(signature))").rows.first
        let (returns, body) = (function?[0] ?? nil, (function?[1] ?? nil) ?? "")
        try giveVaultSecrets(readBy: body)
        let user = userID(for: persona)
        let simple = parameters.map { simpleValue($0, user: user, body: body) }
        var attempts = [simple]
        let allNull = parameters.map { _ in Argument.null }
        if parameters.contains(where: { $0.category != "X" }), simple != allNull { attempts.append(allNull) }
        // Joining the caller to another user's row it cannot read, tried first.
        let selfJoin = try selfJoinArguments(parameters, as: persona, body: body)
        if let selfJoin { attempts.insert(selfJoin.values, at: 0) }
        // Rows of the tables the parameters are named for (`_organization_id`: an
        // organisation's key, where a user's id broke the foreign key), tried after the
        // ids. Found, and made where the setup would make them, only once a call has
        // run without a consequence, so they are not there while the ids' call runs.
        var tableRows: [Argument]?? = nil
        func tableRowsLater(than attempt: Int) throws -> Bool {
            if tableRows == nil {
                var rows = try tableRowArguments(parameters, user: user, body: body).flatMap { $0 == simple ? nil : $0 }
                // Else the same call again once the user it names has the rows its body
                // picks by that user (`makeRowsOfUsersPicked`).
                if rows == nil, case let made = try makeRowsOfUsersPicked(by: parameters, user: user, body: body), !made.isEmpty {
                    rows = zip(parameters, simple).map { parameter, argument in
                        Self.takesAUsersID(parameter)
                            ? Argument(sql: argument.sql, shown: argument.shown + " (with a \(made.joined(separator: ", ")) row made)")
                            : argument
                    }
                }
                // Next, after the attempt that asked (a widened window's call came after the
                // ids' and before it: the rows' call was never made, and a function listing
                // any user's conversations stayed a WARN; round thirty-nine).
                if let rows, !attempts.dropFirst(attempt + 1).contains(rows) { attempts.insert(rows, at: attempt + 1) }
                tableRows = .some(rows)
            }
            guard case .some(.some(let rows)) = tableRows else { return false }
            return attempts.dropFirst(attempt + 1).contains(rows)
        }
        // The values of a call that succeeded without a consequence again, with each
        // defaulted window or cap (`p_hours default 24`) widened, tried once next: the
        // default's window may hold no row (a booking six days ahead), where a client
        // passes any value.
        var widened = false
        func widenedLater(than attempt: Int) -> Bool {
            guard !widened, !windows.isEmpty else { return false }
            widened = true
            attempts.insert(attempts[attempt] + windows.map(Self.widestValue), at: attempt + 1)
            return true
        }
        var evidence: [String] = []
        // The digests of answers returned by calls that read no row.
        var answersOfNoRow: Set<String> = []
        var refusedOnlyForPrivilege = true
        // The call with `values`, each cast to its parameter's type.
        func callText(_ values: [Argument]) -> String {
            let arguments = zip(parameters + windows, values).map { parameter, value in
                (value.named.map { SQL.quoteIdentifier($0) + " => " } ?? "")
                    + (parameter.isVariadic ? "variadic " : "") + (value.sql ?? "null") + "::" + parameter.type
            }
            return "\(finding.signature.map(Self.name) ?? "")(\(arguments.joined(separator: ", ")))"
        }
        var attempt = -1
        while attempt + 1 < attempts.count {
            attempt += 1
            let values = attempts[attempt]
            let call = callText(values)
            let shown = "\(finding.schema).\(finding.name)("
                + values.map { ($0.named.map { $0 + " => " } ?? "") + $0.shown }.joined(separator: ", ") + ")"
            var changes: [String] = []
            var changedTables: [String] = []
            var truncated = false
            var readTables = false
            var readRows = false
            var scanned: [String] = []
            let before = try tableChanges()
            // Rows with a value: a void result or NULL is no data; a boolean is counted
            // only to say which way it answered (true: 1).
            let counted = returns == "void" ? "0" : returns == "boolean" ? "count(result) filter (where result)" : "count(result)"
            // And what it returned, digested, to tell values made per call from data.
            let digestSQL = returns == "void" || returns == "boolean" ? "null" : "md5(string_agg(result::text, ','))"
            let sql = "select \(counted)::text, \(digestSQL) from (select \(call) as result) as called"
            var written: [(table: String, verb: String, count: Int)] = []
            var contentsAfter: [String: String] = [:]
            let outcome = try context.asPersona(persona, "POST", on: finding, sql) {
                let after = try tableChanges()
                written = Self.writes(before: before, after: after)
                contentsAfter = try TableContents.read(Self.countedTables(written), on: context.connection)
                readTables = Self.readATable(before: before, after: after)
                readRows = Self.readARow(before: before, after: after)
                scanned = Self.scannedTables(before: before, after: after)
            }
            // Read again now that the call is rolled back: a table holding what it held
            // before kept none of the writes counted (the function's own exception block
            // undid them).
            let contentsBefore = try TableContents.read(Array(contentsAfter.keys), on: context.connection)
            written.removeAll { write in
                write.verb != Self.truncated && contentsAfter[write.table].map { $0 == contentsBefore[write.table] } == true
            }
            changes = written.map(Self.described)
            truncated = written.contains { $0.verb == Self.truncated }
            changedTables = written.map(\.table).reduce(into: []) { tables, table in
                if tables.last != table { tables.append(table) }
            }
            switch outcome {
            case .rows(let rows):
                let returned = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
                // A value made without reading a table (a random invite code) is no one's data.
                let answer = returns == "boolean" ? [returned > 0 ? "returned true" : "returned false or null"] : []
                let parts = (returns == "boolean" ? answer
                             : returned > 0 ? ["returned \(returned) row\(returned == 1 ? "" : "s")"
                                                + (readRows ? "" : readTables ? " (read no row)" : " (read no table)")] : [])
                    + (changes.isEmpty ? ["changed nothing"] : changes)
                evidence.append("\(persona) called \(shown): succeeded, \(parts.joined(separator: ", "))")
                // Data handed to anon with the owner's rights is a consequence too, and so
                // is a Vault secret handed to a signed-in user whose role may not read the
                // vault (lint called a `get_service_key()` HARMLESS). Other tables a role
                // may not read are often read through functions on purpose (a private
                // schema behind RPCs that return the caller's own rows): not counted.
                let role = context.plan.persona(named: persona)?.role
                var handedOver = returned > 0 && returns != "boolean"
                // A value made per call (a random reference that reads its table only to
                // avoid a collision) is no one's data: the same call again returns another
                // (a listing-id generator was a made-up DANGER, round thirty).
                if role == "anon", handedOver, readRows, changes.isEmpty,
                   case .rows(let again) = try context.asPersona(persona, "POST", on: finding, sql),
                   let first = rows.first?.last ?? nil, let second = again.first?.last ?? nil, first != second {
                    handedOver = false
                    evidence[evidence.count - 1] += "; called again, it returned other values: they are made per call, "
                        + "not read from a table"
                }
                // The answer a call with a made-up id in place of each id given returned
                // too (a rating summary of ava, who is no provider: no review counted) is
                // made of no row of those ids. Whether the call "read a row" on the way
                // was the planner's choice (a sequential scan reads every provider's
                // reviews, an index scan none), so one run said DANGER and the next WARN
                // (a services marketplace, round forty-one).
                if role == "anon", handedOver, readRows, changes.isEmpty, let digest = rows.first?.last ?? nil,
                   let madeUp = Self.withMadeUpIDs(zip(parameters + windows, values).map { ($0.0.type, $0.1) }) {
                    let again = "select \(counted)::text, \(digestSQL) from (select \(callText(madeUp)) as result) as called"
                    if case .rows(let answer) = try context.asPersona(persona, "POST", on: finding, again),
                       answer.first?.last ?? nil == digest {
                        handedOver = false
                        evidence[evidence.count - 1] += "; with a made-up id in place of each id it returned the same: an answer "
                            + "made of no row's data"
                    }
                }
                // The answer a call that read no row returned too (`{"success": false,
                // "error": "not an admin"}` for a made-up key and for a real one) is made
                // of no row (an admins-only key RPC; round thirty-nine).
                let digest = rows.first?.last ?? nil
                if !readRows, returned > 0, let digest { answersOfNoRow.insert(digest) }
                if role == "anon", handedOver, readRows, changes.isEmpty, let digest, answersOfNoRow.contains(digest) {
                    handedOver = false
                    evidence[evidence.count - 1] += "; it returned what a call that read no row returned: an answer "
                        + "made of no row's data"
                }
                // Rows only from tables anon reads whole itself (a catalogue RPC over
                // `categories`, which every visitor selects directly): nothing is handed
                // over (a made-up DANGER whose advice, revoke it from anon, broke the app's
                // shop pages; round thirty-eight).
                if role == "anon", handedOver, readRows, changes.isEmpty,
                   try readsWholeItself(scanned, persona: persona, role: "anon", on: finding) {
                    handedOver = false
                    evidence[evidence.count - 1] += "; it read only \(scanned.joined(separator: ", ")), "
                        + "every row of which anon reads itself"
                }
                let unreadable = handedOver && role != "service_role"
                    ? try tables(scanned.filter { $0.hasPrefix("vault.") }, unreadableBy: role ?? "") : []
                if !unreadable.isEmpty {
                    evidence[evidence.count - 1] += "; it read \(unreadable.joined(separator: ", ")), "
                        + "the Vault's secrets, which \(persona)'s role may not read itself"
                }
                // A value made of no row it read (`coalesce(n, 0)` for a quiz there is not,
                // a fixed "invalid code" answer) is no data either.
                let proven = !changes.isEmpty || (role == "anon" && handedOver && readRows) || !unreadable.isEmpty
                if proven, let readers = try sessionUserReaders(signature) {
                    // `if session_user = 'authenticator' then <check> else return true`:
                    // the probe ran as this run's login, a request as authenticator.
                    return LintConsequence(verdict: .notProbed, evidence: evidence + [
                        "\(readers) reads session_user, which is authenticator in a PostgREST request but this run's own "
                            + "login here: the call may have taken a branch no request takes",
                    ])
                }
                // Rows written with another user's row the caller cannot read: what
                // made them the caller's (`user_id`) is what lets it in.
                if proven, let selfJoin, values == selfJoin.values {
                    return LintConsequence(verdict: .proven, evidence: evidence + [
                        "\(persona) cannot read that \(selfJoin.table) row: the call joined \(persona) to another user's row",
                    ], personas: [persona])
                }
                // A signed-in user's call that changed only the user's own rows (a
                // self-service `update profiles ... where id = auth.uid()`): revoking it
                // would break the app, and nothing shows it does more than the user may.
                // A table emptied is every user's rows, whoever's rows it had.
                if proven, !changes.isEmpty, !truncated,
                   let owners = try onlyOwnRowsChanged(by: call, as: persona, in: changedTables) {
                    return LintConsequence(verdict: .notProbed, evidence: evidence + [
                        "the call changed only \(persona)'s own rows (\(owners)): whether it lets \(persona) change what "
                            + "the tables' own policies do not is not probed",
                    ])
                }
                if proven { return LintConsequence(verdict: .proven, evidence: evidence, personas: [persona]) }
                if widenedLater(than: attempt) { continue }
                // Arguments we made up ('pgwarden', ava's id where a coupon's is wanted)
                // that changed nothing may just have matched no row: that proves nothing.
                if !values.isEmpty {
                    if try tableRowsLater(than: attempt) { continue }
                    return LintConsequence(verdict: .notProbed, evidence: evidence + [
                        "the call's arguments were made up: that it changed nothing may only mean they matched no row",
                    ])
                }
                // A table its body updates or deletes from that has no row: changing
                // nothing there proves nothing (every team's overdue tasks, with no task).
                let empty = try emptyTablesItsBodyWrites(signature)
                if !empty.isEmpty {
                    return LintConsequence(verdict: .notProbed, evidence: evidence + [
                        "\(empty.joined(separator: ", ")), which its body updates or deletes from, "
                            + "\(empty.count == 1 ? "has" : "have") no rows (as the admin too): that it changed nothing proves nothing",
                    ])
                }
                return LintConsequence(verdict: .harmless, evidence: evidence)
            case .refused(let error) where error.sqlState == .featureNotSupported && error.message.hasPrefix("trigger functions can only be called as triggers"):
                // PostgREST does not expose trigger functions, and a call fails: nothing to reach.
                evidence.append("\(persona) called \(shown): failed, \(PersonaOutcome.describe(error)): a trigger function no request can call")
                return LintConsequence(verdict: .harmless, evidence: evidence)
            case .refused(let error):
                evidence.append("\(persona) called \(shown): failed, \(PersonaOutcome.describe(error))")
                if error.sqlState != .insufficientPrivilege { refusedOnlyForPrivilege = false }
                // A user's id or e-mail that is taken (`create_user(id, email)` making a
                // confirmed account, 23505 on ava's id: anon making accounts was a WARN):
                // the same call again with ones no one has.
                if error.sqlState == .uniqueViolation, let fresh = Self.freshValues(for: values),
                   !attempts.contains(fresh) {
                    attempts.insert(fresh, at: attempt + 1)
                    continue
                }
                _ = try tableRowsLater(than: attempt)
            }
        }
        return LintConsequence(verdict: refusedOnlyForPrivilege ? .harmless : .notProbed, evidence: evidence)
    }

    /// The function, or one its body calls by name (two calls deep), whose body reads
    /// `session_user` (the custom-claims helpers' `is_claims_admin()`), named; nil when none does.
    private func sessionUserReaders(_ signature: String) throws -> String? {
        let found = try context.connection.query(
            """
            with recursive reached(oid, depth) as (
              select to_regprocedure(\(signature))::oid, 0
              union
              select callee.oid, r.depth + 1
              from reached r join pg_catalog.pg_proc caller on caller.oid = r.oid
              join pg_catalog.pg_proc callee on callee.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
                and strpos(caller.prosrc, callee.proname::text) > 0
                and caller.prosrc ~* ('\\m' || callee.proname || '\\s*\\(')
              where r.depth < 2)
            select string_agg(distinct format('%s.%s(%s)', p.pronamespace::pg_catalog.regnamespace, p.proname,
                                              pg_catalog.pg_get_function_identity_arguments(p.oid)), ', ')
            from reached r join pg_catalog.pg_proc p on p.oid = r.oid
            where p.prosrc ~* '\\msession_user\\M'
            """).scalar
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The tables, without a row, that the function's body names after `update` or
    /// `delete from` (read as written; a name without a schema is looked up in the
    /// function's own search_path setting, else in public).
    private func emptyTablesItsBodyWrites(_ signature: String) throws -> [String] {
        let tables = try context.connection.query(
            """
            select distinct format('%I.%I', c.relnamespace::pg_catalog.regnamespace, c.relname)
            from pg_catalog.pg_proc p
            cross join lateral regexp_matches(p.prosrc, '\\m(?:update|delete\\s+from)\\s+(?:only\\s+)?([A-Za-z_"][\\w."]*)', 'gi') as m
            cross join lateral (select coalesce(
                case when m[1] like '%.%' then to_regclass(m[1]) end,
                (select to_regclass(s || '.' || m[1])
                 from unnest(coalesce((select string_to_array(replace(split_part(c, '=', 2), ' ', ''), ',')
                                       from unnest(p.proconfig) as c where c like 'search_path=%'), '{}') || '{public}'::text[])
                        with ordinality as path(s, n)
                 where to_regclass(s || '.' || m[1]) is not null order by n limit 1)) as oid) as target
            join pg_catalog.pg_class c on c.oid = target.oid and c.relkind in ('r', 'p')
            where p.oid = to_regprocedure(\(signature))
            order by 1
            """).rows.compactMap { $0[0] }
        return try tables.filter { table in
            try context.connection.query("select (not exists (select from \(raw: table)))::text").scalar == "true"
        }
    }

    /// The user id a uuid parameter gets, and whose it is: another user's, as anyone
    /// who has seen an id can pass it (for anon, the first signed-in persona's; for a
    /// signed-in persona, the other's, where there is one, else its own). With its own
    /// id, a call that changed the persona's own row showed nothing a user may not do.
    private func userID(for persona: String) -> (id: String, owner: String)? {
        let others = context.plan.personas.filter { $0.user != nil && $0.name != persona }.map(\.name)
        for owner in others + [persona] {
            if let id = context.userIDs[owner] { return (id, owner) }
        }
        return nil
    }

    /// `schema.name` of a signature, as written in it (quoted where needed).
    static func name(_ signature: String) -> String {
        String(signature[..<(signature.firstIndex(of: "(") ?? signature.endIndex)])
    }

    /// The input parameters a call must give: those with defaults left out, unless the
    /// schema has another function of the name (then a call without them may match
    /// both, 42725 "function is not unique", and prove nothing about either: every
    /// parameter is given, as a client must give them to reach this one). And, of the
    /// defaulted ones left out, the windows and caps (`widens`), given by name when a
    /// call is tried again widened.
    private func parametersToGive(_ signature: String) throws -> (required: [Parameter], windows: [Parameter]) {
        let rows = try context.connection.query(
            """
            select format_type(a.type, null), t.typcategory::text,
                   (p.provariadic <> 0 and a.position = p.pronargs)::text, coalesce(p.proargnames[a.position], ''),
                   format_type(e.oid, null), e.typcategory::text,
                   (a.position <= p.pronargs - p.pronargdefaults
                    or exists (select from pg_proc o where o.pronamespace = p.pronamespace and o.proname = p.proname
                               and o.oid <> p.oid))::text
            from pg_proc p
            cross join lateral unnest(p.proargtypes::oid[]) with ordinality as a(type, position)
            join pg_type t on t.oid = a.type
            left join pg_type e on e.oid = t.typelem and t.typcategory = 'A'
            where p.oid = to_regprocedure(\(signature))
            order by a.position
            """).rows
        let parameters = rows.map { row in
            (Parameter(name: row[3] ?? "", type: row[0] ?? "text", category: row[1] ?? "", isVariadic: row[2] == "true",
                       element: row[4].map { ($0, row[5] ?? "") }), given: row[6] == "true")
        }
        return (parameters.filter(\.given).map(\.0), parameters.filter { !$0.given && Self.widens($0.0) }.map(\.0))
    }

    /// Whether a defaulted parameter is a window or a cap a larger value widens: a
    /// number or interval named for a span or a limit (`p_hours`, `days_ahead`,
    /// `max_results`, `p_limit`, `radius_km`). An offset or a page is not one.
    static func widens(_ parameter: Parameter) -> Bool {
        guard !parameter.name.isEmpty, !parameter.isVariadic, parameter.category == "N" || parameter.category == "T" else {
            return false
        }
        let words = Set(parameter.name.lowercased().split(separator: "_").map(String.init))
        return !words.isDisjoint(with: [
            "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
            "limit", "window", "ahead", "lookahead", "within", "max", "size", "count", "horizon", "radius", "distance",
            "interval", "span", "top",
        ])
    }

    /// The value a window or cap is widened to, given by name: 10,000 (hours, days,
    /// rows; it fits a smallint), or a century.
    static func widestValue(_ parameter: Parameter) -> Argument {
        parameter.category == "T"
            ? Argument(sql: "'100 years'", shown: "'100 years'", named: parameter.name)
            : Argument(sql: "10000", shown: "10000", named: parameter.name)
    }

    func simpleValue(_ parameter: Parameter, user: (id: String, owner: String)?, body: String) -> Argument {
        if parameter.isVariadic { return .null }
        switch (parameter.category, parameter.type) {
        case ("N", _): return Argument(sql: "1", shown: "1")
        case ("S", _):
            if let value = Self.comparedLiteral(of: parameter.name, in: body).map(DraftOwnership.literal)
                ?? checkedValue(assignedFrom: parameter.name, in: body) {
                return Argument(sql: value, shown: value)
            }
            // An e-mail: the user's whose id the call gets (anyone who has seen an e-mail
            // can pass it); 'pgwarden' matched no account, and an anon lookup of any
            // user's id by e-mail was only a WARN.
            if parameter.name.lowercased().contains("email"), let user,
               let email = context.plan.persona(named: user.owner)?.user?.email {
                return Argument(sql: DraftOwnership.literal(email), shown: "\(user.owner)'s e-mail")
            }
            // A schedule: one pg_cron takes (`cron.schedule` refused 'pgwarden' with
            // 22023, and anon's call scheduling any SQL as the owner stayed a WARN).
            if Self.namesASchedule(parameter.name) { return Argument(sql: "'* * * * *'", shown: "'* * * * *'") }
            if let value = storedValue(comparedWith: parameter.name, in: body) { return Argument(sql: value, shown: value) }
            return Argument(sql: "'pgwarden'", shown: "'pgwarden'")
        case ("B", _): return Argument(sql: "true", shown: "true")
        case ("D", _): return Self.dateValue(parameter) ?? .null
        // An enum: the label the body compares it with, else its first (NULL matched
        // nothing: `has_role(null)` showed nothing either way).
        case ("E", _):
            if let value = Self.comparedLiteral(of: parameter.name, in: body).map(DraftOwnership.literal) {
                return Argument(sql: value, shown: value)
            }
            let first = try? context.connection.query("select enum_first(null::\(raw: parameter.type))::text").scalar
            return first.map { label in Argument(sql: DraftOwnership.literal(label), shown: DraftOwnership.literal(label)) } ?? .null
        case (_, "uuid"): return user.map { Argument(sql: "'\($0.id)'", shown: "\($0.owner)'s id") } ?? .null
        case ("A", _):
            // An array of what one value of its element would be (`uuid[]`: the user's id
            // alone): null, the call read nothing and proved nothing.
            guard let element = parameter.element else { return .null }
            let one = simpleValue(Parameter(name: parameter.name, type: element.type, category: element.category,
                                            isVariadic: false), user: user, body: body)
            guard let sql = one.sql else { return .null }
            return Argument(sql: "array[\(sql)]", shown: "[\(one.shown)]")
        default: return .null
        }
    }

    /// `values` with each user's id and e-mail replaced by ones no user has; nil when
    /// it has neither.
    static func freshValues(for values: [Argument]) -> [Argument]? {
        var replaced = false
        let fresh = values.map { value -> Argument in
            if value.shown.hasSuffix("'s id") {
                replaced = true
                return Argument(sql: "'\(UUID().uuidString.lowercased())'", shown: "a new id", named: value.named)
            }
            if value.shown.hasSuffix("'s e-mail") {
                replaced = true
                return Argument(sql: "'someone.new@example.com'", shown: "a new e-mail", named: value.named)
            }
            return value
        }
        return replaced ? fresh : nil
    }

    /// A date or timestamp for a parameter, by its name: the far past for the start of a
    /// range (`p_start`, `from_date`, `since`), the far future for its end (`p_end`,
    /// `to_date`, `until`), else now. (NULL matched no row: anon reading any household's
    /// spending through `spending_by_category(p_household_id, p_start, p_end)` was a
    /// WARN.) A time of day is 10:00, inside any opening hours (NULL broke a booking
    /// function's NOT NULL, 23502, and anon booking in any client's name stayed a WARN;
    /// round thirty-eight).
    static func dateValue(_ parameter: Parameter) -> Argument? {
        let type = parameter.type.lowercased()
        if type.hasPrefix("time") && !type.hasPrefix("timestamp") {
            return Argument(sql: "'10:00'::\(type)", shown: "'10:00'")
        }
        guard type == "date" || type.hasPrefix("timestamp") else { return nil }
        let words = Set(parameter.name.lowercased().split(separator: "_").map(String.init))
        let value: String
        if !words.isDisjoint(with: ["end", "to", "until", "till", "before", "max", "last", "upto"]) {
            value = "'2999-12-31'"
        } else if !words.isDisjoint(with: ["start", "from", "since", "begin", "after", "min", "first"]) {
            value = "'1900-01-01'"
        } else {
            return Argument(sql: "now()::\(type)", shown: "now()")
        }
        return Argument(sql: "\(value)::\(type)", shown: value)
    }

    /// Whether a text parameter's name says it holds a cron schedule (`schedule`,
    /// `p_schedule`, `cron_expression`, `job_cron`).
    static func namesASchedule(_ name: String) -> Bool {
        let words = name.lowercased().split(separator: "_")
        return words.contains("schedule") || words.contains("cron")
    }

    /// The first string literal `body` compares the parameter `name` with (`p_kind =
    /// 'receipt'`, `'receipt' = p_kind`, `p_kind in ('receipt', ...)`, `case p_kind when
    /// 'receipt'`): a function that acts only for the values it knows raised for
    /// 'pgwarden', and its update of any user's row went unseen.
    static func comparedLiteral(of name: String, in body: String) -> String? {
        guard !name.isEmpty else { return nil }
        let parameter = #"(?<![\w."$])"# + NSRegularExpression.escapedPattern(for: name) + #"(?![\w"$])"#
        let literal = #"'((?:[^']|'')*)'"#
        let patterns = [
            parameter + #"\s*=\s*"# + literal,
            literal + #"\s*=\s*"# + parameter,
            parameter + #"\s+in\s*\(\s*"# + literal,
            #"case\s+"# + parameter + #"\s+when\s+"# + literal,
        ]
        let range = NSRange(body.startIndex..., in: body)
        let found = patterns.compactMap { pattern -> (location: Int, value: String)? in
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                  let match = regex.firstMatch(in: body, range: range),
                  let value = Range(match.range(at: 1), in: body) else { return nil }
            return (match.range.location, String(body[value]).replacingOccurrences(of: "''", with: "'"))
        }
        return found.min { $0.location < $1.location }?.value
    }

    /// Table -> rows inserted, updated, deleted so far in this transaction, its scans,
    /// the rows those scans read, and its file (`relfilenode`), for every user table.
    /// TRUNCATE counts no deleted row (anon emptying every table through a definer
    /// `truncate_tables()` was "changed nothing"), but gives the table a new file.
    private func tableChanges() throws -> [String: [Int]] {
        var changes: [String: [Int]] = [:]
        for row in try context.connection.query(
            """
            select format('%s.%s', s.schemaname, s.relname), s.n_tup_ins::text, s.n_tup_upd::text, s.n_tup_del::text,
                   (s.seq_scan + coalesce(s.idx_scan, 0))::text, (s.seq_tup_read + coalesce(s.idx_tup_fetch, 0))::text,
                   c.relfilenode::text
            from pg_stat_xact_user_tables s join pg_catalog.pg_class c on c.oid = s.relid
            """).rows {
            changes[row[0] ?? ""] = [row[1], row[2], row[3], row[4], row[5], row[6]].map { Int($0 ?? "") ?? 0 }
        }
        return changes
    }

    /// The tables scanned between the two readings of `tableChanges`, by name.
    static func scannedTables(before: [String: [Int]], after: [String: [Int]]) -> [String] {
        after.keys.sorted().filter { (after[$0]?[3] ?? 0) > (before[$0]?[3] ?? 0) }
    }

    /// Those of `tables` (`schema.name`) that `role` may not select from: no SELECT on
    /// the table, or no USAGE on its schema.
    private func tables(_ tables: [String], unreadableBy role: String) throws -> [String] {
        guard !tables.isEmpty, !role.isEmpty else { return [] }
        return try context.connection.query(
            """
            select t from unnest(\(PostgresArray.literal(tables))::text[]) as t
            where to_regclass(t) is not null and to_regrole(\(role)) is not null
              and not (has_schema_privilege(\(role), split_part(t, '.', 1), 'USAGE')
                       and has_table_privilege(\(role), to_regclass(t), 'SELECT'))
            order by t
            """).rows.compactMap { $0[0] }
    }

    /// Whether `persona` (of role `role`) reads every row of each of `tables` itself:
    /// SELECT on the table and USAGE on its schema, and its own count of the rows is the
    /// admin's. False for no table.
    private func readsWholeItself(_ tables: [String], persona: String, role: String, on finding: LintFinding) throws -> Bool {
        guard !tables.isEmpty, try self.tables(tables, unreadableBy: role).isEmpty else { return false }
        for table in tables {
            let parts = table.split(separator: ".", maxSplits: 1).map { SQL.quoteIdentifier(String($0)) }
            let count = "select count(*)::text from \(parts.joined(separator: "."))"
            guard let all = try context.connection.query(SQL(raw: count)).rows.first?.first ?? nil,
                  case .rows(let own) = try context.asPersona(persona, "GET", on: finding, count),
                  own.first?.first == all else { return false }
        }
        return true
    }

    /// Whether a table was scanned between the two readings of `tableChanges` (each
    /// row: inserted, updated, deleted, scans).
    static func readATable(before: [String: [Int]], after: [String: [Int]]) -> Bool {
        after.contains { table, now in now[3] > (before[table]?[3] ?? 0) }
    }

    /// Whether a scan between the two readings of `tableChanges` read a row (a lookup of
    /// a key there is not scans and reads none).
    static func readARow(before: [String: [Int]], after: [String: [Int]]) -> Bool {
        after.contains { table, now in now[4] > (before[table]?[4] ?? 0) }
    }

    /// For a signed-in persona: the owner column of each changed table (auth.users: id;
    /// the auth tables a user's deletion cascades into: `authRowsOfUser`; an exposed
    /// table: the one its policies compare with auth.uid()), as `table.column`, when the
    /// same call again left every other user's rows as they were (their count and the
    /// sum of their rows' hashes, read as the admin before and after the call, in its
    /// rolled-back savepoint); nil when a changed table has no owner column, the persona
    /// has no account, or another user's row changed.
    private func onlyOwnRowsChanged(by call: String, as persona: String, in tables: [String]) throws -> String? {
        guard let id = context.userIDs[persona], !tables.isEmpty else { return nil }
        var owners: [(table: String, shown: String, isTheUsers: String)] = []
        // Whose a row is: the owner column of the table's rules, else the column naming
        // its user (`teams.created_by` of a team an onboarding function makes for the
        // caller, whose rules go through memberships: the call was a DANGER, with the
        // advice to revoke what onboarding needs).
        for table in tables {
            if let rows = Self.authRowsOfUser[table] {
                owners.append((table, rows.shown, rows.condition.replacingOccurrences(of: "$user", with: "'\(id)'")))
                continue
            }
            // Or addressed to the user's e-mail (`user_invitations.email`, beside the inviter's
            // `invited_by`): accepting one's own invitation was a DANGER with the advice to
            // revoke it (an HR app's `accept_user_invitation`; round thirty-nine).
            let addressed = (context.plan.persona(named: persona)?.user?.email).flatMap { email in
                ownership?.catalog.columns[table]?.first(where: {
                    $0.comparedWithTokenEmail || ($0.category == "S" && DraftOwnership.namesAnEmail($0))
                }).map { (column: $0.name, condition: "\(SQL.quoteIdentifier($0.name)) = \(SQL.quoteLiteral(email))") }
            }
            if let column = ownership.flatMap({
                $0.ownerColumn(of: table) ?? $0.catalog.userColumns[table] ?? $0.membershipColumns(of: table)?.userColumn
            }) {
                let mine = "\(SQL.quoteIdentifier(column))::text = '\(id)'"
                owners.append((table, "\(table).\(column)" + (addressed.map { " or \($0.column)" } ?? ""),
                               addressed.map { "(\(mine) or \($0.condition))" } ?? mine))
                continue
            }
            if let addressed {
                owners.append((table, "\(table).\(addressed.column)", addressed.condition))
                continue
            }
            // A group with no user column is its members' (`groups` of `members (group_id,
            // user_id)`): a function making a group and the caller's membership in it was
            // a DANGER with the advice to revoke it, though it is how the app makes one.
            if let membership = groupMembership(of: table) {
                owners.append((table, "\(table) through \(membership.table).\(membership.user)",
                               "exists (select 1 from \(membership.quoted) m where m.\(SQL.quoteIdentifier(membership.row)) = "
                                + "t.\(SQL.quoteIdentifier(membership.key)) and m.\(SQL.quoteIdentifier(membership.user))::text = '\(id)')"))
                continue
            }
            // A row whose parent is the user's (`board_settings.board_id -> boards`, whose
            // `owner_id` is): an onboarding function making the caller's board and its
            // settings row was a DANGER with the advice to revoke it (round thirty-four).
            let ownerOf = { (table: String) in ownership?.ownerColumn(of: table) ?? ownership?.catalog.userColumns[table] }
            if let parent = ownership?.ownedParent(of: table, ownerOf: ownerOf) {
                owners.append((table, "\(table) through \(parent.table).\(parent.owner)",
                               "exists (select 1 from \(Self.quoted(parent.table)) p where p.\(SQL.quoteIdentifier(parent.key)) = "
                                + "t.\(SQL.quoteIdentifier(parent.column)) and p.\(SQL.quoteIdentifier(parent.owner))::text = '\(id)')"))
                continue
            }
            // Or whose grandparent is (`org_keys.org_id -> orgs`, `orgs.created_by ->
            // app_users (auth_user_id)`): the API key a trigger gives the caller's new
            // organisation was "another user's row", and creating an organisation a
            // DANGER with the advice to revoke it (an agent platform; round thirty-nine).
            guard let (parent, grandparent) = ownedGrandparent(of: table, ownerOf: ownerOf) else { return nil }
            owners.append((table, "\(table) through \(parent.table), \(grandparent.table).\(grandparent.owner)",
                           "exists (select 1 from \(Self.quoted(parent.table)) p join \(Self.quoted(grandparent.table)) g "
                            + "on g.\(SQL.quoteIdentifier(grandparent.key)) = p.\(SQL.quoteIdentifier(grandparent.column)) "
                            + "where p.\(SQL.quoteIdentifier(parent.key)) = t.\(SQL.quoteIdentifier(parent.column)) "
                            + "and g.\(SQL.quoteIdentifier(grandparent.owner))::text = '\(id)')"))
        }
        let others = owners.map { owner -> String in
            // With each row's version (`xmin`): an update that wrote another user's row with
            // the values it had (a trust score recomputed to the same number) changed it too.
            "(select \(TableContents.digest(of: "t")) from \(Self.quoted(owner.table)) t "
                + "where not coalesce(\(owner.isTheUsers), false))"
        }.joined(separator: " || ' ' || ")
        let readOthers = { try context.connection.query("select \(raw: others)").scalar }
        let before = try readOthers()
        var after: String?
        let outcome = try context.asPersona(persona, "POST", on: finding, "select \(call)") { after = try readOthers() }
        guard case .rows = outcome, after == before else { return nil }
        return owners.map(\.shown).joined(separator: ", ")
    }

    /// A foreign key of `table` to a parent whose own foreign key names a row `ownerOf`
    /// gives an owner column: the parent's key (column, table, referenced key) and the
    /// grandparent's (`ownedParent`).
    private func ownedGrandparent(of table: String, ownerOf: (String) -> String?)
        -> (parent: (column: String, table: String, key: String), grandparent: (column: String, table: String, key: String, owner: String))?
    {
        guard let ownership else { return nil }
        for column in ownership.catalog.columns[table] ?? [] {
            guard let reference = column.reference, reference.table != table, reference.table != "auth.users",
                  let grandparent = ownership.ownedParent(of: reference.table, ownerOf: ownerOf),
                  grandparent.table != table else { continue }
            return ((column.name, reference.table, reference.column), grandparent)
        }
        return nil
    }

    /// The membership table whose rows make `table`'s rows their members' (`members
    /// (group_id -> groups, user_id)`: `DraftOwnership.membershipColumns`), with its
    /// name quoted, its row and user columns, and the key of `table` the row column names.
    private func groupMembership(of table: String) -> (table: String, quoted: String, row: String, user: String, key: String)? {
        ownership?.groupMembership(of: table).map { ($0.table, Self.quoted($0.table), $0.row, $0.user, $0.key) }
    }

    /// Which rows of the auth tables a user's deletion cascades into are the user's
    /// (`$user`: the user's id as a text literal), and how that is shown. Deleting one's
    /// own account (`delete from auth.users where id = auth.uid()`, as Supabase's guides
    /// write it) also deleted the user's sessions and their MFA claims, which name no
    /// user: the call was a DANGER, with the advice to revoke it. (Columns from
    /// Supabase Auth's migrations; refresh tokens hold the user's id as text.)
    static let authRowsOfUser: [String: (condition: String, shown: String)] = [
        "auth.users": ("t.id::text = $user", "auth.users.id"),
        "auth.identities": ("t.user_id::text = $user", "auth.identities.user_id"),
        "auth.sessions": ("t.user_id::text = $user", "auth.sessions.user_id"),
        "auth.mfa_factors": ("t.user_id::text = $user", "auth.mfa_factors.user_id"),
        "auth.one_time_tokens": ("t.user_id::text = $user", "auth.one_time_tokens.user_id"),
        "auth.refresh_tokens": ("t.user_id::text = $user", "auth.refresh_tokens.user_id"),
        "auth.flow_state": ("t.user_id::text = $user", "auth.flow_state.user_id"),
        "auth.mfa_amr_claims": (
            "t.session_id in (select s.id from auth.sessions s where s.user_id::text = $user)",
            "auth.mfa_amr_claims.session_id -> auth.sessions.user_id"),
        "auth.mfa_challenges": (
            "t.factor_id in (select f.id from auth.mfa_factors f where f.user_id::text = $user)",
            "auth.mfa_challenges.factor_id -> auth.mfa_factors.user_id"),
    ]

    /// The rows inserted, updated and deleted between the two readings of
    /// `tableChanges`, one entry per table (in name order) and kind of change.
    static func writes(before: [String: [Int]], after: [String: [Int]]) -> [(table: String, verb: String, count: Int)] {
        after.keys.sorted().flatMap { table in
            // A table not read before the call (made by it) changed from nothing, its file aside.
            let now = after[table] ?? [], then = before[table]
            let counted = ["inserted", "updated", "deleted"].enumerated().compactMap { offset, verb in
                let count = now[offset] - (then?[offset] ?? 0)
                return count > 0 ? (table, verb, count) : nil
            }
            let truncated = then.map { $0[5] != now[5] } == true ? [(table, Self.truncated, 0)] : []
            return truncated + counted
        }
    }

    /// The tables of `writes` with rows counted (not truncated), each once.
    static func countedTables(_ writes: [(table: String, verb: String, count: Int)]) -> [String] {
        Array(Set(writes.filter { $0.verb != truncated }.map(\.table))).sorted()
    }

    /// The verb of a table `writes` found truncated (its rows are not counted).
    static let truncated = "truncated"

    /// How a write of `writes` reads in the evidence.
    static func described(_ write: (table: String, verb: String, count: Int)) -> String {
        write.verb == truncated
            ? "truncated \(write.table)"
            : "\(write.verb) \(write.count) row\(write.count == 1 ? "" : "s") of \(write.table)"
    }
}
