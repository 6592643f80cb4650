import WardenPostgres

/// Probes one table or view for every persona: what each sees, and, for tables,
/// whether each insert, update (including moving a row to another owner) and delete
/// is allowed on own rows and on another user's rows, as the plan says.
///
/// Two phases, each queued on a `ProbeBatch` shared by every relation of the plan:
/// the truth (`queueTruth`, as the admin), then the probes (`queueProbes`, as the
/// personas), each probe in a savepoint of its own that is rolled back.
struct RelationProber {
    let context: ProbeContext
    let plan: RelationPlan
    let relation: ExposedCatalog.Relation

    /// A probe's result, read once its batch has run.
    typealias Pending = () throws -> ProbeResult

    /// The relation's quoted, schema-qualified name.
    var table: SQL { "\(identifier: relation.schema, relation.name)" }

    /// The whole row, as a query that reads `table` without an alias names it. The
    /// relation is never aliased: an owner rule taken from a policy names the policy's
    /// table where PostgreSQL's deparser qualifies a column (`teams.id` inside a
    /// subquery), and it only resolves where the table goes by its own name, as in the
    /// policy and in PostgREST's queries.
    var wholeRow: SQL { "\(identifier: relation.name).*" }

    /// The row as `role` may read it: the whole row, or, for a role that may read some
    /// columns only (`grant select (id, bio)`), those columns (`row(profiles.id,
    /// profiles.bio)`), as a client's read names them. (`profiles.*` was refused, 42501,
    /// and the matrix said "denied" where any client reads every row's bio; a community
    /// app, round thirty-nine.) The truth reads the same columns for the role.
    func readableRow(for role: String) -> SQL {
        guard let columns = relation.readableColumns[role] else { return wholeRow }
        let named = columns.map { column -> SQL in "\(identifier: relation.name).\(identifier: column)" }
        return "row(\(SQL.joined(named, separator: ", ")))"
    }

    /// Queues every persona's probes; the returned closure reads their results once
    /// the batch has run.
    func queueProbes(_ truth: RelationTruth, _ batch: ProbeBatch) throws -> () throws -> [ProbeResult] {
        var pending: [Pending] = []
        if let columns = plan.columns {
            let result = columnsResult(declared: columns)
            pending.append { result }
        }
        for persona in context.plan.personas {
            let access = plan.access[persona.name] ?? .nothing
            pending.append(try queueSelect(persona, access.select, truth, batch))
            guard relation.isTable else { continue }
            pending += try queueInserts(persona, access.insert, truth, batch)
            pending += try queueRowWrites(persona, access.update, operation: .update, truth, batch)
            pending += try queueRowWrites(persona, access.delete, operation: .delete, truth, batch)
        }
        return { try pending.map { try $0() } }
    }

    func result(_ persona: Persona?, _ operation: AccessOperation?, _ probe: String, expected: String,
                observed: String, passed: Bool) -> ProbeResult {
        ProbeResult(
            subjectKind: .relation, subject: plan.qualifiedName, persona: persona?.name, operation: operation,
            probe: probe, expected: expected, observed: observed, passed: passed)
    }

    private func columnsResult(declared: [String]) -> ProbeResult {
        result(nil, nil, "columns", expected: declared.joined(separator: ", "),
               observed: relation.columns.joined(separator: ", "), passed: declared == relation.columns)
    }

    // MARK: - Select

    /// Row count and a digest of the rows' text, so sets compare without shipping rows.
    /// A row's text (`record_out`) prints each value as its type does in this session:
    /// the truth and the probe print alike (`PersonaRequest.truthSettings`). (Issue 18:
    /// `to_jsonb(row)::text` cost 0.41 ms a read of Electric Ride's largest view, this
    /// 0.24; a bare count 0.14.) The digest is the sum of each row's 64-bit text hash,
    /// which no order changes; an md5 of the rows had to sort and join their text first
    /// (50,000 rows of 1.5 kB: 680 ms a read, this 220).
    func digestSQL(role: String) -> SQL {
        """
        select count(*)::text, coalesce(sum(hashtextextended(j, 0)::numeric), 0)::text
        from (select (\(readableRow(for: role)))::text as j from \(table)) s
        """
    }

    /// `digestSQL(role:)`'s two columns, then the same two for the rows the plan's owner rule
    /// (`condition`, SQL the plan's author wrote on purpose) is true of: one scan for
    /// both sets (what two queries with and without `where (condition)` gave).
    func digestSQL(alsoWhere condition: String, role: String) -> SQL {
        """
        select count(*)::text, coalesce(sum(hashtextextended(j, 0)::numeric), 0)::text,
               count(*) filter (where own)::text,
               coalesce(sum(hashtextextended(j, 0)::numeric) filter (where own), 0)::text
        from (select (\(readableRow(for: role)))::text as j, (\(raw: condition)) as own from \(table)) s
        """
    }

    private func queueSelect(_ persona: Persona, _ scope: Scope, _ truth: RelationTruth, _ batch: ProbeBatch) throws
        -> Pending
    {
        let request = context.request(persona).routed("GET", "/\(plan.name)", schema: plan.schema)
        guard let digests = truth.digests[persona.name] else {
            throw PGError(kind: .client, message: "no truth computed for \(persona.name) on \(plan.qualifiedName)")
        }
        // One unit, as PostgREST sets them: the role switch and request settings, then the read.
        let ticket = batch.rolledBack([
            PersonaRequest.select(request.roleSwitch + request.requestSettings), digestSQL(role: persona.role),
        ], parsedAs: request.role)
        return {
            let outcomes = try batch.outcomes(ticket)
            let seen: [String?]?
            var deniedOther: String?
            do {
                _ = try outcomes[0].get()
                seen = try outcomes[1].get().rows.first
            } catch let error as PGError where error.sqlState == .insufficientPrivilege {
                seen = nil
                // Refused on a table the read reaches through a policy, view or function
                // (`auth.users`), not on the relation: said, so the report can name it.
                deniedOther = Self.otherDeniedTable(error.message, relation: plan.name)
            } catch let error as PGError where Self.isReadFailure(error, outcomes) {
                // The read itself failed as the API would answer it (a policy that
                // recurses, 42P17; a cast in a policy, 22P02): an observation, not a
                // failure of the run.
                let failure = ProbeOutcome(error)
                return result(persona, .select, "select", expected: selectExpectation(scope, truth: digests),
                              observed: failure.summary, passed: false)
            }
            return selectResult(persona, scope, seen: seen, truth: digests, deniedOther: deniedOther)
        }
    }

    /// The table a refusal names (`permission denied for table users`) when it is not
    /// `relation`; nil for the relation's own refusal or another message.
    static func otherDeniedTable(_ message: String, relation: String) -> String? {
        let marker = "permission denied for table "
        guard message.hasPrefix(marker) else { return nil }
        let table = String(message.dropFirst(marker.count))
        return table == relation ? nil : table
    }

    /// Whether `error` is the read's own (its settings went through) and a server
    /// error other than a limit running out, which stops the run.
    private static func isReadFailure(_ error: PGError, _ outcomes: [PipelinedBatch.Outcome]) -> Bool {
        guard case .result = outcomes[0], case .error = outcomes[1] else { return false }
        return error.kind == .server && !AccessPlanLimits.isLimit(error)
    }

    private func selectResult(_ persona: Persona, _ scope: Scope, seen: [String?]?,
                              truth: (all: [String?], own: [String?]?), deniedOther: String? = nil) -> ProbeResult {
        var observed: String
        let passed: Bool
        let allCount = truth.all.first.flatMap { $0 } ?? "0"
        if seen != nil, allCount == "0" {
            // No row at all, as the admin too: a read of nothing proves no scope (every
            // one of them held vacuously: a draft wrote `none` where every signed-in user
            // may read every row as soon as there is one).
            observed = "cannot probe: \(plan.qualifiedName) has no rows at all (as the admin too), so a read shows nothing "
                + "either way; give it rows in the plan's setup"
            passed = false
        } else if let seen {
            let count = seen.first.flatMap { $0 } ?? "0"
            if count == "0" {
                observed = "none (0 rows)"
            } else if seen == truth.all {
                // Every row the persona's own by the owner rule: the read shows none of
                // another user's, whatever the policies would let it see (`plan draft`
                // reads this as own: "sees other users' rows" was a DANGER beside its note
                // that no row is another user's; round thirty-seven).
                observed = "all (\(count) rows" + (persona.user != nil && truth.own == truth.all ? Self.everyRowOwn(persona.name) : "") + ")"
            } else if let own = truth.own, seen == own {
                observed = "own (\(count) rows)"
            } else {
                let ownCount = truth.own?.first.flatMap { $0 } ?? "-"
                let sameCountAs = count == allCount ? "all" : count == ownCount ? "own" : nil
                observed = "\(count) rows: neither all (\(allCount)) nor own (\(ownCount))"
                    + (sameCountAs.map { ": as many as \($0), but other rows or values" } ?? "")
            }
            // What a role that may read some columns only was shown of each row.
            if count != "0", let columns = relation.readableColumns[persona.role] {
                observed += " of columns \(columns.joined(separator: ", "))"
            }
            switch scope {
            case .all: passed = seen == truth.all
            case .own: passed = truth.own.map { seen == $0 } ?? false
            case .nothing: passed = count == "0"
            case .denied: passed = false
            case .someRows: passed = count != "0" && seen != truth.all && truth.own.map { seen != $0 } ?? true
            }
        } else {
            observed = deniedOther.map { "none (permission denied for table \($0))" } ?? "none (permission denied)"
            passed = scope == .nothing || scope == .denied
        }
        return result(persona, .select, "select", expected: selectExpectation(scope, truth: truth), observed: observed,
                      passed: passed)
    }

    /// How a read's "all" ends where every row is the persona's own by the owner rule.
    static func everyRowOwn(_ name: String) -> String { ", each one \(name)'s own by the owner rule" }

    /// What the plan expects a read to see, in the report's words.
    private func selectExpectation(_ scope: Scope, truth: (all: [String?], own: [String?]?)) -> String {
        switch scope {
        case .all: return "all (\(truth.all.first.flatMap { $0 } ?? "0") rows)"
        case .own: return "own (\(truth.own?.first.flatMap { $0 } ?? "0") rows)"
        case .nothing: return "none (0 rows or permission denied)"
        case .denied: return "denied (42501)"
        case .someRows:
            let own = truth.own.map { " nor own (\($0.first.flatMap { $0 } ?? "0"))" } ?? ""
            return "some (at least one row, neither all (\(truth.all.first.flatMap { $0 } ?? "0"))\(own))"
        }
    }

    // MARK: - Insert

    /// The first sample entry that looks a row up (`(select id from public.dms where
    /// ...)`) and found none: its value is NULL.
    static func missingSampleValue(_ sample: [(column: String, expression: String)], _ values: [String?])
        -> (column: String, expression: String)?
    {
        zip(sample, values).first { entry, value in
            value == nil && entry.expression.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("(select")
        }?.0
    }

    /// Whether two evaluations of the sample are the same but for the columns whose
    /// expression draws a new value each time (`gen_random_uuid()`, `now()`): those say
    /// nothing of whose the row is (an organisation's `id` made two samples differ).
    static func sameButForRandomValues(_ a: [String?], _ b: [String?], _ sample: [(column: String, expression: String)]) -> Bool {
        let random: Set<String> = ["gen_random_uuid()", "uuid_generate_v4()", "extensions.uuid_generate_v4()", "now()", "random()"]
        return zip(sample.indices, zip(a, b)).allSatisfy { index, pair in
            pair.0 == pair.1 || random.contains(sample[index].expression.trimmingCharacters(in: .whitespaces).lowercased())
        }
    }

    /// Whether no client can insert another user's row of `storage.objects`: Storage
    /// writes an upload's `owner` and `owner_id` from the caller's token ("an owner is
    /// automatically assigned ... derived from the sub claim in the JWT",
    /// https://supabase.com/docs/guides/storage/security/ownership), so where the owner
    /// rule reads them, every file a client uploads is its own. (Such an insert, with
    /// ben's id in `owner_id`, was a made-up DANGER: "may insert other users' rows".)
    private var ownerStampedByStorage: Bool {
        plan.qualifiedName == "storage.objects"
            && plan.owner.map { Self.namesBareColumn("owner", in: $0) || Self.namesBareColumn("owner_id", in: $0) } == true
    }

    /// Whether `expression` names the column `name` unqualified and unquoted: not after
    /// a word character, `.` or `"`, not before a word character or `"`. (A scan, not a
    /// Foundation regular expression: building one took 2 ms of each run's client time,
    /// most of it ICU's start, on the probes' path; issue 18.)
    static func namesBareColumn(_ name: String, in expression: String) -> Bool {
        let text = Array(expression.unicodeScalars), word = Array(name.unicodeScalars)
        func isWord(_ scalar: Unicode.Scalar) -> Bool {  // what `\w` matches
            switch scalar.properties.generalCategory {
            case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark: true
            default: scalar.properties.isAlphabetic
            }
        }
        guard text.count >= word.count else { return false }
        for start in 0...(text.count - word.count) where text[start..<(start + word.count)].elementsEqual(word) {
            let before = start > 0 ? text[start - 1] : nil, after = start + word.count < text.count ? text[start + word.count] : nil
            if let before, isWord(before) || before == "." || before == "\"" { continue }
            if let after, isWord(after) || after == "\"" { continue }
            return true
        }
        return false
    }

    private func queueInserts(_ persona: Persona, _ scope: Scope, _ truth: RelationTruth, _ batch: ProbeBatch) throws
        -> [Pending]
    {
        var targets: [(label: String, owner: Persona?, ownsIt: Bool)] = []
        if plan.owner != nil, persona.user != nil {
            targets.append(("insert own row", persona, true))
            if let other = context.otherUser(than: persona), !ownerStampedByStorage {
                targets.append(("insert another user's row", other, false))
            }
        } else {
            targets.append(("insert a row", persona.user != nil ? persona : context.someUser, plan.owner == nil))
        }
        return try targets.map { target in
            let expectAllowed = scope == .all || (scope == .own && target.ownsIt)
            let values: [String?]
            switch try truth.sample(as: target.owner) {
            case .success(let sampled): values = sampled
            case .failure(let error):
                let failed = result(persona, .insert, target.label, expected: expectation(expectAllowed, scope),
                                    observed: "the plan's sample could not be evaluated: \(error.message)", passed: false)
                return { failed }
            }
            // Another user's row that the sample cannot tell from the persona's own (no
            // column names whose it is: an organisation its members own, a trigger making
            // the inserter its member): the row an insert makes is the inserter's or no
            // one's, never another user's, so where the plan refuses that, no insert can
            // do it. (Inserting it, then calling any insert "other users' rows", made up
            // a DANGER on every app where users create their own organisations.)
            if !target.ownsIt, !expectAllowed, target.owner != nil,
               case .success(let own)? = try? truth.sample(as: persona), Self.sameButForRandomValues(own, values, plan.sample) {
                // (The own row's probe shows what a refusal of the insert itself is.)
                var refused = verdict(persona, .insert, target.label, expectAllowed: false, scope: scope,
                                      outcome: .denied(message: "no other user's row to insert"))
                refused.observed = "refused: the sample gives both users the same values, so an insert names no other "
                    + "user (a row it makes is the inserter's or no one's)"
                return { refused }
            }
            // The persona's own row as a client writes it: without the columns its role
            // may not insert that have a default (`created_by default auth.uid()` outside
            // `grant insert (id, name)`), which the default fills. Another user's row
            // names them: a client cannot make it another's otherwise.
            let leftToDefaults = target.ownsIt || target.owner?.name == persona.name
                ? Set(relation.defaultedColumnsNotInsertable[persona.role] ?? []) : []
            let read = queueInsert(values, leaving: leftToDefaults, as: persona, batch)
            // Another user's row in the persona's own parent rows: the owner rule's
            // columns as the other user's sample has them, every other column as the
            // persona's. An insert policy that checks only the parent (`exists (select 1
            // from boards where id = board_id and owner_id = auth.uid())`) refuses ben's
            // whole row, for its board, and lets ava write a note in ben's name into her
            // own board: that is the row the probe is about (round thirty-four).
            let mixed = target.ownsIt ? nil : ownParentsWithOthersOwner(values, as: persona, truth)
            let readMixed = mixed.map { queueInsert($0.values, leaving: leftToDefaults, as: persona, batch) }
            let missing = Self.missingSampleValue(plan.sample, values)
            return {
                let outcome = try read()
                if let readMixed, let mixed, let other = target.owner, !outcome.letThrough {
                    let inOwnParents = try readMixed()
                    if inOwnParents.letThrough {
                        var result = verdict(persona, .insert, target.label, expectAllowed: expectAllowed, scope: scope,
                                             outcome: inOwnParents)
                        result.observed += " (\(other.name)'s row with \(persona.name)'s own "
                            + mixed.ownColumns.joined(separator: ", ") + ")"
                        return result
                    }
                }
                // A policy's refusal of a row whose sample found no row to point at (a
                // conversation of ava's that the setup could not make) proves nothing
                // about the persona: any row would have been refused so.
                if case .denied(let message) = outcome, persona.user != nil, message.contains("row-level security"),
                   let missing {
                    return result(persona, .insert, target.label, expected: expectation(expectAllowed, scope),
                                  observed: "cannot probe: there is no such row: the sample's \(missing.column), \(missing.expression), "
                                      + "is NULL for \(target.owner?.name ?? persona.name), so the policy's refusal may be only that",
                                  passed: false)
                }
                return refusedByOwnCode(persona, .insert, target.label, expectAllowed: expectAllowed, scope: scope,
                                        outcome: outcome, kept: "no row was inserted")
                    ?? verdict(persona, .insert, target.label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
            }
        }
    }

    /// Queues an insert of `values` (the sample's, in its order) as `persona`, leaving
    /// out the columns in `leaving`.
    private func queueInsert(_ values: [String?], leaving: Set<String>, as persona: Persona, _ batch: ProbeBatch)
        -> () throws -> ProbeOutcome
    {
        let kept = plan.sample.indices.filter { !leaving.contains(plan.sample[$0].column) }
        let columns = SQL.joined(kept.map { "\(identifier: plan.sample[$0].column)" }, separator: ", ")
        let bound = SQL.joined(kept.map { "\(values[$0])" }, separator: ", ")
        // Every sampled column left to its default: the row a client's `{}` makes.
        let insert: SQL = kept.isEmpty
            ? "insert into \(table) default values" : "insert into \(table) (\(columns)) values (\(bound))"
        let request = context.request(persona).routed("POST", "/\(plan.name)", schema: plan.schema)
        return SealedProbe(
            context, request,
            adminFirst: plan.beforeInsert.map { ($0, "the before_insert SQL of \(plan.qualifiedName)") },
            statement: insert
        ).queue(batch)
    }

    /// `persona`'s own sample with the owner rule's columns taken from `others` (another
    /// user's sample), and the columns whose own values it keeps that differ from the
    /// other's: nil when that row is one of the two samples already (no other column
    /// depends on whose the row is, or the owner rule names no sampled column), or when
    /// none of those columns is a row looked up for the user (a `(select ...)`, a parent
    /// row of theirs; `auth.email()` is no row of anyone's).
    private func ownParentsWithOthersOwner(_ others: [String?], as persona: Persona, _ truth: RelationTruth)
        -> (values: [String?], ownColumns: [String])?
    {
        guard let owner = plan.owner, case .success(let own)? = try? truth.sample(as: persona) else { return nil }
        // Named bare or qualified by the table's own name (`assigned_workouts.client_id`,
        // as pg_get_expr writes a column inside a subquery): a rule reading the client
        // only that way kept ava's client in "ben's row", which was ava's own.
        let ownerColumns = Set(plan.sample.indices.filter {
            let column = plan.sample[$0].column
            return Self.namesBareColumn(column, in: owner) || owner.contains("\(plan.name).\(column)")
                || owner.contains("\(SQL.quoteIdentifier(plan.name)).\(SQL.quoteIdentifier(column))")
        })
        guard !ownerColumns.isEmpty else { return nil }
        var mixed = own
        for index in ownerColumns { mixed[index] = others[index] }
        guard mixed != own, mixed != others else { return nil }
        let kept = plan.sample.indices.filter { !ownerColumns.contains($0) && own[$0] != others[$0] }
        guard kept.contains(where: {
            plan.sample[$0].expression.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().hasPrefix("(select")
        }) else { return nil }
        return (mixed, kept.map { plan.sample[$0].column })
    }
}
