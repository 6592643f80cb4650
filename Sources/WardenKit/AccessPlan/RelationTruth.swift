import WardenPostgres

/// What is true of one relation, computed as the admin with each persona's claims
/// (every query in a savepoint that is rolled back): the digests of all rows and of
/// the persona's own rows, the plan's sample values as each user would write them,
/// and the rows the write probes aim at. Queued on a `ProbeBatch` with every other
/// relation's, so the whole plan's truth costs one round trip.
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
    /// Queues the queries that compute this relation's truth; the returned closure
    /// reads them once the batch has run.
    func queueTruth(_ batch: ProbeBatch) -> () throws -> RelationTruth {
        var digestTickets: [(String, ProbeBatch.Ticket)] = []
        for persona in context.plan.personas {
            let request = context.request(persona).routed("GET", "/\(plan.name)")
            let digest = plan.owner.map { digestSQL(alsoWhere: $0) } ?? digestSQL()
            digestTickets.append((persona.name, batch.rolledBack(
                [PersonaRequest.select(request.requestSettings), digest], parsedAs: PlanReuse.adminRole)))
        }
        guard relation.isTable else {
            return { RelationTruth(digests: try Self.readDigests(digestTickets, batch)) }
        }
        var sampleTickets: [(String, ProbeBatch.Ticket)] = []
        var owners: [Persona?] = context.plan.personas.filter { $0.user != nil }
        if context.someUser == nil { owners.append(nil) }
        let list = SQL.joined(plan.sample.map { "(\(raw: $0.expression))::text" }, separator: ", ")
        for owner in owners {
            let request = owner.map { context.request($0) } ?? .nobody
            sampleTickets.append((owner?.name ?? "", batch.rolledBack([
                PersonaRequest.select(request.requestSettings), "select \(list)",
            ], parsedAs: PlanReuse.adminRole)))
        }
        var targetTickets: [(RelationTruth.Target, ProbeBatch.Ticket)] = []
        for target in targets() {
            targetTickets.append((target, batch.rolledBack(targetStatements(target), parsedAs: PlanReuse.adminRole)))
        }
        return {
            var truth = RelationTruth(digests: try Self.readDigests(digestTickets, batch))
            for (name, ticket) in sampleTickets {
                let outcomes = try batch.outcomes(ticket)
                _ = try outcomes[0].get()
                switch outcomes[1] {
                case .result(let result): truth.samples[name] = .success(result.rows.first ?? [])
                case .error(let error): truth.samples[name] = .failure(error)
                case .skipped: _ = try outcomes[1].get()
                }
            }
            for (target, ticket) in targetTickets {
                let outcomes = try batch.outcomes(ticket)
                truth.targets[target] = try outcomes.map { try $0.get() }.last?.scalar
            }
            return truth
        }
    }

    private static func readDigests(_ tickets: [(String, ProbeBatch.Ticket)], _ batch: ProbeBatch) throws
        -> [String: (all: [String?], own: [String?]?)]
    {
        var digests: [String: (all: [String?], own: [String?]?)] = [:]
        for (name, ticket) in tickets {
            let results = try batch.outcomes(ticket).map { try $0.get() }
            let row = results[1].rows.first ?? []
            digests[name] = (Array(row.prefix(2)), row.count > 2 ? Array(row.dropFirst(2)) : nil)
        }
        return digests
    }

    /// The rows the write probes of every persona aim at.
    private func targets() -> [RelationTruth.Target] {
        var targets: [RelationTruth.Target] = []
        for persona in context.plan.personas {
            if plan.owner != nil, persona.user != nil {
                targets += [.own(persona.name), .notOwn(persona.name)]
            } else if plan.owner != nil {
                if let user = context.someUser { targets.append(.own(user.name)) }
            } else {
                targets.append(.any(persona.name))
            }
        }
        return Array(Set(targets))
    }

    /// Finds the target row with the claims of the persona it is about.
    private func targetStatements(_ target: RelationTruth.Target) -> [SQL] {
        let name: String
        var condition: SQL = ""
        switch target {
        case .own(let persona):
            name = persona
            if let owner = plan.owner { condition = " where (\(raw: owner))" }
        case .notOwn(let persona):
            name = persona
            if let owner = plan.owner { condition = " where not coalesce((\(raw: owner)), false)" }
        case .any(let persona):
            name = persona
        }
        let request = context.plan.persona(named: name).map { context.request($0) } ?? .nobody
        return [
            PersonaRequest.select(request.requestSettings),
            "select ctid::text from \(table)\(condition) limit 1",
        ]
    }
}
