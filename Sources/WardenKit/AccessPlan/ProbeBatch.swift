import WardenPostgres

/// Probes collected and sent together (`PipelinedBatch`): one round trip for all of
/// them, however many there are. The batch sets one savepoint after its seal check,
/// and every probe is followed by a unit of its own that rolls back to it, so a probe
/// that fails leaves the transaction usable for the next, and no probe sees what
/// another did: `rollback to savepoint` undoes everything since the savepoint and
/// keeps it, so each probe starts from the very state the batch started from, as
/// with a savepoint of its own (two statements fewer per probe; issue 18). The
/// savepoint is released after the last probe.
///
/// The seal (`RunSeal`) is checked once, after the whole batch, and that is as
/// strong as checking after every probe: every probe's changes, a role or setting
/// changed with `set_config(..., false)` included, are undone by its rollback to the
/// savepoint; that rollback (and the final release) must succeed (the transaction and the
/// savepoint are then still the runner's: no statement sent as one extended-protocol
/// message can end the transaction and leave a savepoint of it behind), and whatever
/// would outlive a probe outlives the batch, where the seal's identity query, sent
/// as the batch's last unit, sees it (with the transaction status, as
/// `RunSeal.verify` checks them). The batch's first unit checks the seal too (what
/// ran before the batch), with a guard that stops every later unit when it is
/// broken: nothing of the batch runs after a broken seal.
///
/// A statement text that several probes send as the same role is parsed and planned
/// once: it goes as a named prepared statement (`PlanReuse`; issue 18: planning a
/// view of eight joins is most of a read probe's server time). The statements are
/// deallocated at the end of the batch.
final class ProbeBatch {
    /// A probe's place in the batch.
    struct Ticket {
        fileprivate let unit: Int
    }

    private static let savepoint = "pgwarden_probe"
    private static let rollback: SQL = "rollback to savepoint \(raw: savepoint)"
    /// The units as queued; `roles[i]`: the role unit i's statements are parsed as
    /// when their plans may be shared (nil: each is sent unnamed).
    private var units: [[SQL]] = []
    private var roles: [String?] = []
    private var controlUnits: Set<Int> = []
    private var outcomes: [[PipelinedBatch.Outcome]] = []
    /// Whether a limit that ran out in any probe stops the run (`run` throws it);
    /// false when the reader handles them (a check may expect 57014).
    private let stopsAtLimits: Bool
    /// Whether repeated statements may share plans (false when running again the
    /// probes whose shared plan could not be made).
    private let sharesPlans: Bool
    private let seal: RunSeal
    /// What ran before the batch, for the message when the first check fails.
    private let before: String

    init(seal: RunSeal, after before: String, stopsAtLimits: Bool = true, sharesPlans: Bool = true) {
        self.seal = seal
        self.before = before
        self.stopsAtLimits = stopsAtLimits
        self.sharesPlans = sharesPlans
        add([RunSeal.identitySQL, seal.guardSQL()])
        add(["savepoint \(raw: Self.savepoint)"], control: true)
    }

    @discardableResult
    private func add(_ statements: [SQL], parsedAs role: String? = nil, control: Bool = false) -> Int {
        units.append(statements)
        roles.append(sharesPlans ? role : nil)
        if control { controlUnits.insert(units.count - 1) }
        return units.count - 1
    }

    /// Adds statements that run in order and are rolled back after them. `role`: the
    /// role all of them are parsed as (the one the unit's first statement switches
    /// to, or the admin's); when given, a statement whose text another probe sends
    /// as the same role shares its plan. Leave it nil for plan SQL: a statement that
    /// may change the role makes the role of the statements after it unknown.
    func rolledBack(_ statements: [SQL], parsedAs role: String? = nil) -> Ticket {
        let unit = add(statements, parsedAs: role)
        add([Self.rollback], parsedAs: PlanReuse.anyRole, control: true)
        return Ticket(unit: unit)
    }

    /// Sends everything, reads every outcome, then checks that every probe was
    /// rolled back and that the seal holds. A limit that ran out (a lock wait, a long
    /// statement) stops the run, as it would have one probe at a time.
    func run(_ connection: Connection, after origin: String) throws {
        let reuse = PlanReuse(units: units, roles: roles, connection: connection)
        // Each prepared statement is deallocated before the release, in a unit of its
        // own followed by a rollback to the savepoint: DEALLOCATE fails (26000) when
        // the statement's Parse did, and that aborts the subtransaction only.
        for deallocate in reuse.deallocations {
            add([deallocate])
            add([Self.rollback], control: true)
        }
        add(["release savepoint \(raw: Self.savepoint)"], control: true)
        let lastUnit = add([RunSeal.identitySQL])
        var batch = PipelinedBatch()
        for index in units.indices {
            batch.add(statements: reuse.statements(ofUnit: index, units[index]))
        }
        outcomes = try connection.run(batch)
        try seal.check(identity: try outcomes[0][0].get().rows.first ?? [], after: before)
        for unit in controlUnits.sorted() {
            for case .error(let error) in outcomes[unit] {
                throw AccessPlanError(
                    file: seal.source, line: nil,
                    message: "\(origin) broke the run's seal: the probes' savepoint could not be set, rolled back to or released (\(error.message)); the run was stopped and rolled back")
            }
        }
        for outcome in outcomes.joined() where stopsAtLimits {
            if case .error(let error) = outcome, AccessPlanLimits.isLimit(error) { throw error }
        }
        guard connection.transactionStatus == .inTransaction else {
            throw AccessPlanError(
                file: seal.source, line: nil,
                message: "\(origin) broke the run's seal: the run's transaction is no longer open; the run was stopped and rolled back")
        }
        try seal.check(identity: try outcomes[lastUnit][0].get().rows.first ?? [], after: origin)
        try runAgainWithoutSharedPlans(reuse.unitsMissingTheirPlan(outcomes), connection, after: origin)
    }

    /// Runs again, each statement unnamed, the probes that were to use a shared plan
    /// whose Parse failed or was skipped (they got 26000): every probe is rolled back,
    /// so running it later is running it from the same state.
    private func runAgainWithoutSharedPlans(_ units: [Int], _ connection: Connection, after origin: String) throws {
        guard !units.isEmpty else { return }
        let again = ProbeBatch(seal: seal, after: origin, stopsAtLimits: stopsAtLimits, sharesPlans: false)
        let tickets = units.map { again.rolledBack(self.units[$0]) }
        try again.run(connection, after: origin)
        for (unit, ticket) in zip(units, tickets) {
            outcomes[unit] = try again.outcomes(ticket)
        }
    }

    /// The outcome of each statement of a probe, in the order they were given.
    func outcomes(_ ticket: Ticket) throws -> [PipelinedBatch.Outcome] {
        outcomes[ticket.unit]
    }
}
