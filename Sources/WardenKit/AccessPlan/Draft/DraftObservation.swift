/// Turns a run's results into the cells a plan would state: each operation's scope
/// from what its probes observed, or a note when no scope says what happened.
///
/// The run this reads expects nothing of every cell (scope `none`, execute `deny`),
/// so a probe fails exactly when access was allowed, and its `observed` text says how.
struct DraftObservation {
    let results: [ProbeResult]

    /// The observed access of `persona` to `relation`, and notes on what could not
    /// be observed or expressed.
    func access(_ relation: String, _ persona: String) -> (access: Access, notes: [String]) {
        let mine = results.filter { $0.subject == relation && $0.persona == persona }
        var notes: [String] = []
        var access = Access.nothing
        if let select = mine.first(where: { $0.operation == .select }) {
            access.select = selectScope(select.observed, notes: &notes)
            // Every row is the persona's own by the owner rule (`organization_id = my_org()`
            // where the sign-up puts every user in one organisation): reading them all is
            // reading its own, and `own` says so, with a note that the read showed no other
            // user's row (`all` made "sees other users' rows" a DANGER; round thirty-seven).
            if access.select == .all, select.observed.hasSuffix(RelationProber.everyRowOwn(persona) + ")") {
                access.select = .own
                notes.append("select: \(select.observed): no row here is another user's, so the read shows nothing of theirs; "
                    + "give another user a row in the plan's setup to probe it")
            }
        }
        for operation in [AccessOperation.insert, .update, .delete] {
            let probes = mine.filter { $0.operation == operation }
            guard !probes.isEmpty else { continue }
            for probe in probes where isUnknown(probe.observed) {
                notes.append("\(probe.probe): \(probe.observed)")
            }
            // An insert the project's own code refused (a trigger's `raise exception`) may
            // be refused for the sample's values, not for who inserts it: said, where the
            // cell alone said "none" (a listing's places in two countries: sellers and
            // service_role "could not insert"; round thirty-eight).
            for probe in probes where operation == .insert && probe.observed.hasPrefix(Self.refusedByOwnCode) {
                notes.append("\(probe.probe): \(probe.observed); the sample's values may be what the code refuses, not who "
                    + "inserts them: give the relation a sample it accepts to probe the insert itself")
            }
            let allowed = { (label: String) in probes.first { $0.probe.hasSuffix(label) || $0.probe.hasPrefix(label) }.map { isAllowed($0.observed) } }
            let own = allowed("own row"), other = allowed("another user's row"), move = allowed("move own row")
            let scope: Scope
            if own == nil && other == nil {
                scope = probes.contains { isAllowed($0.observed) } ? .all : .nothing
            } else {
                let (mine, theirs, moving) = (own ?? false, other ?? false, move ?? false)
                if mine && theirs && (move == nil || moving) {
                    scope = .all
                } else if !theirs && !moving {
                    scope = mine ? .own : .nothing
                } else {
                    scope = theirs ? .all : .own
                    notes.append("\(operation.rawValue): own row \(mine ? "allowed" : "refused"), another user's row \(theirs ? "allowed" : "refused")"
                        + (move == nil ? "" : ", moving an own row to another user \(moving ? "allowed" : "refused")")
                        + ": neither own nor all says that")
                }
            }
            switch operation {
            case .insert: access.insert = scope
            case .update: access.update = scope
            case .delete: access.delete = scope
            case .select: break
            }
        }
        return (access, notes)
    }

    /// The indices of `relations` whose owner rule held for none of the table's rows
    /// as every one of the `signedIn` personas (each own-row probe "cannot probe" for
    /// that reason), though the table had rows.
    func ownerRulesOwningNoRow(_ relations: [RelationPlan], signedIn: [String]) -> [Int] {
        guard !signedIn.isEmpty else { return [] }
        return relations.indices.filter { index in
            let relation = relations[index]
            guard relation.owner != nil else { return false }
            return signedIn.allSatisfy { persona in
                results.contains {
                    $0.subject == relation.qualifiedName && $0.persona == persona && $0.probe.hasSuffix("own row")
                        && $0.observed.hasPrefix("cannot probe: the owner rule") && $0.observed.hasSuffix(RelationProber.noOwnRowAdvice)
                }
            }
        }
    }

    /// Whether `persona` could execute `function`.
    func executes(_ function: String, _ persona: String) -> Bool {
        results.first { $0.subject == function && $0.persona == persona }?.observed == "execute"
    }

    private func selectScope(_ observed: String, notes: inout [String]) -> Scope {
        if observed.hasPrefix("all (") { return .all }
        if observed.hasPrefix("own (") { return .own }
        if observed.hasPrefix("none (permission denied") { return .denied }
        if observed.hasPrefix("none (") { return .nothing }
        // Some rows (`published` ones, with or without the own): `some` states it; the
        // counts stay in a note when they match all's or own's (other rows or values).
        if observed.contains(": neither all (") {
            if observed.contains(", but other rows or values") { notes.append("select: \(observed)") }
            return .someRows
        }
        notes.append("select: \(observed)")
        return .nothing
    }

    /// A write went through: rows touched (`1 row`, or `1 row (ben's row with ava's own
    /// board_id)`), or stopped only by a constraint.
    private func isAllowed(_ observed: String) -> Bool {
        if observed.hasPrefix("allowed, then stopped by a constraint") { return true }
        let words = observed.split(separator: " ")
        return (words.count == 2 || words.count > 2 && words[2].hasPrefix("("))
            && (words[1] == "row" || words[1] == "rows") && (Int(words[0]) ?? 0) > 0
    }

    /// How a write's observed text begins where the database's own code refused it
    /// (`RelationProber.refusedByOwnCode`).
    static let refusedByOwnCode = "refused by the database's own code ("

    private func isUnknown(_ observed: String) -> Bool {
        observed.hasPrefix("cannot probe") || observed.hasPrefix("error ") || observed.hasPrefix("the plan's sample")
    }
}
