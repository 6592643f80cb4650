import WardenPostgres

/// What is true of one relation, computed as the admin with each persona's claims and
/// print settings (`PersonaRequest.truthSettings`; every query in a savepoint that is
/// rolled back): the digests of all rows and of the persona's own rows, the plan's
/// sample values as each user would write them, and the rows the write probes aim at.
/// Queued on a `ProbeBatch` with every other relation's, so the whole plan's truth
/// costs one round trip.
struct RelationTruth {
    /// Which row a write probe aims at: one the persona owns, does not own, or any.
    enum Target: Hashable {
        case own(String), notOwn(String), any(String)
    }

    /// Persona name -> (count and digest of all rows, of the persona's own rows).
    var digests: [String: (all: [String?], own: [String?]?)] = [:]
    /// Persona name (`""` for no one) -> the sample's values as that user writes them.
    var samples: [String: Result<[String?], PGError>] = [:]
    /// The ctid of each target row (nil: no such row).
    var targets: [Target: String?] = [:]

    /// The truth of a relation the admin cannot read either (an unpopulated materialized
    /// view): no rows, for every persona; its read probes show the server's answer.
    static func unreadable(by personas: [Persona]) -> RelationTruth {
        var truth = RelationTruth()
        for persona in personas { truth.digests[persona.name] = (["0", "0"], nil) }
        return truth
    }

    /// The sample's values as `owner` (nil: no one) would write them.
    func sample(as owner: Persona?) throws -> Result<[String?], PGError> {
        guard let values = samples[owner?.name ?? ""] else {
            throw PGError(kind: .client, message: "no sample computed for \(owner?.name ?? "no one")")
        }
        return values
    }

    /// The ctid of a target row; nil when there is no such row.
    func row(_ target: Target) -> String? {
        targets[target] ?? nil
    }
}

extension RelationProber {
    /// A persona's truth statement in a batch: its digests, then its target rows.
    private typealias DigestTicket = (persona: String, targets: [RelationTruth.Target], ticket: ProbeBatch.Ticket)

    /// Queues the queries that compute this relation's truth; the returned closure
    /// reads them once the batch has run. Each persona's digests and the rows its write
    /// probes aim at are read by one statement (they share the persona's claims; issue
    /// 18: one statement, not three, per target row); each sample by one of its own,
    /// since a sample that cannot be evaluated is an outcome the report shows.
    func queueTruth(_ batch: ProbeBatch) -> () throws -> RelationTruth {
        var digestTickets: [DigestTicket] = []
        // One persona's truth stands for every persona's when claims cannot change it.
        let personas = sharesOneTruth ? Array(context.plan.personas.prefix(1)) : context.plan.personas
        for persona in personas {
            let request = context.request(persona).routed("GET", "/\(plan.name)", schema: plan.schema)
            let digest = ownerRule(for: persona).map { digestSQL(alsoWhere: $0, role: persona.role) }
                ?? digestSQL(role: persona.role)
            let targets = relation.isTable ? targets(of: persona) : []
            digestTickets.append((persona.name, targets, batch.rolledBack(
                [PersonaRequest.select(request.truthSettings), withTargets(digest, targets)],
                parsedAs: PlanReuse.adminRole)))
        }
        let everyone = sharesOneTruth ? context.plan.personas.map(\.name) : []
        guard relation.isTable else {
            return { try Self.read(digestTickets, batch, sharedBy: everyone) }
        }
        var sampleTickets: [(String, ProbeBatch.Ticket)] = []
        var owners: [Persona?] = context.plan.personas.filter { $0.user != nil }
        if context.someUser == nil { owners.append(nil) }
        let list = SQL.joined(plan.sample.map { "(\(raw: $0.expression))::text" }, separator: ", ")
        for owner in owners {
            let request = owner.map { context.request($0) } ?? .nobody
            sampleTickets.append((owner?.name ?? "", batch.rolledBack([
                PersonaRequest.select(request.truthSettings), "select \(list)",
            ], parsedAs: PlanReuse.adminRole)))
        }
        return {
            var truth = try Self.read(digestTickets, batch, sharedBy: everyone)
            for (name, ticket) in sampleTickets {
                let outcomes = try batch.outcomes(ticket)
                _ = try outcomes[0].get()
                switch outcomes[1] {
                case .result(let result): truth.samples[name] = .success(result.rows.first ?? [])
                case .error(let error): truth.samples[name] = .failure(error)
                case .skipped: _ = try outcomes[1].get()
                }
            }
            return truth
        }
    }

    /// The owner rule a persona's own rows are computed by: nil for a persona with no
    /// user (anon, the service role), who owns no row, unless the plan gives it `own`
    /// here. (A membership helper refusing a caller who is not signed in, `raise ...
    /// 'authentication required'`, failed anon's truth, and with it the whole run.)
    private func ownerRule(for persona: Persona) -> String? {
        guard let rule = plan.owner else { return nil }
        if persona.user != nil { return rule }
        let access = plan.access[persona.name] ?? .nothing
        return AccessOperation.allCases.contains { access.scope(of: $0) == .own } ? rule : nil
    }

    /// Whether one persona's truth is every persona's: a table with no owner rule that
    /// row-level security does not restrict for the admin, and personas whose values
    /// print, and names resolve, alike (`PersonaRequest.sharesTruthSettings`: the
    /// digests compare the rows' text).
    /// The admin then sees every row whatever the claims (a table's rows are read
    /// without calling anything that could read them), and each persona's write probes
    /// aim at any row, the same one. (Issue 18: a third of Electric Ride's truth
    /// statements.)
    var sharesOneTruth: Bool {
        relation.isTable && plan.owner == nil && context.catalogReadByAdmin && !relation.rowSecurityAppliesToReader
            && context.personasShareTruthSettings && relation.readableColumns.isEmpty
    }

    /// Reads each persona's digests, then the ctid of each of its target rows. With
    /// `sharedBy`, the one persona's truth read is each of those personas' too.
    private static func read(_ tickets: [DigestTicket], _ batch: ProbeBatch, sharedBy everyone: [String]) throws
        -> RelationTruth
    {
        var truth = RelationTruth()
        for (name, targets, ticket) in tickets {
            let results = try batch.outcomes(ticket).map { try $0.get() }
            let row = results[1].rows.first ?? []
            let digests = Array(row.dropLast(targets.count))
            truth.digests[name] = (Array(digests.prefix(2)), digests.count > 2 ? Array(digests.dropFirst(2)) : nil)
            for (target, ctid) in zip(targets, row.suffix(targets.count)) { truth.targets[target] = ctid }
        }
        if let (first, _, _) = tickets.first {
            for name in everyone where name != first {
                truth.digests[name] = truth.digests[first]
                truth.targets[.any(name)] = truth.targets[.any(first)]
            }
        }
        return truth
    }

    /// The rows the write probes aim at that are found with `persona`'s claims: its own
    /// and another's when the relation has an owner rule and the persona a user, any
    /// row when there is no owner rule. A persona without a user aims at the first
    /// user's own row, found with that user's claims; when no persona has a user (the
    /// sign-up trigger refused them all), at any row (`queueRowWrites`).
    private func targets(of persona: Persona) -> [RelationTruth.Target] {
        switch (plan.owner, persona.user) {
        case (nil, _): return [.any(persona.name)]
        case (.some, .some): return [.own(persona.name), .notOwn(persona.name)]
        case (.some, nil): return context.someUser == nil ? [.any(persona.name)] : []
        }
    }

    /// The digest query with, after its columns, the key (`rowKey`) of one row of each target
    /// (null: no such row), each a scalar subquery over the relation.
    private func withTargets(_ digest: SQL, _ targets: [RelationTruth.Target]) -> SQL {
        guard !targets.isEmpty else { return digest }
        let rows = targets.map { target -> SQL in
            var condition: SQL = ""
            switch target {
            case .own: if let owner = plan.owner { condition = " where (\(raw: owner))" }
            case .notOwn:
                // Another user's row: not the persona's, nor one shared with every user.
                if let owner = plan.owner, let shared = plan.shared {
                    condition = " where not coalesce((\(raw: owner)), false) and not coalesce((\(raw: shared)), false)"
                } else if let owner = plan.owner {
                    condition = " where not coalesce((\(raw: owner)), false)"
                }
            case .any: break
            }
            return "(select \(rowKey) from \(table)\(condition) limit 1)"
        }
        return "select pgwarden_truth.*, \(SQL.joined(rows, separator: ", ")) from (\(digest)) pgwarden_truth"
    }
}
