import WardenPostgres

/// Probes collected and sent together (`PipelinedBatch`): one round trip for all of
/// them, however many there are. The batch sets one savepoint after its seal check,
/// and every probe is rolled back to it, so a probe that fails leaves the transaction
/// usable for the next, and no probe sees what another did: `rollback to savepoint`
/// undoes everything since the savepoint and keeps it, so each probe starts from the
/// very state the batch started from, as with a savepoint of its own (two statements
/// fewer per probe; issue 18). The savepoint is released after the last probe.
///
/// A probe's rollback opens the next unit (the next probe's, or the batch's closing
/// one), not a unit of its own: a failed statement skips only the rest of its unit,
/// and the next unit still starts with the rollback, so the next probe runs only after
/// it, exactly as before, with one Sync (one server flush, one client read) fewer per
/// probe (issue 18).
///
/// The seal (`RunSeal`) is checked once, after the whole batch, and that is as
/// strong as checking after every probe: every probe's changes, a role or setting
/// changed with `set_config(..., false)` included, are undone by its rollback to the
/// savepoint; that rollback (and the final release) must succeed (the transaction and the
/// savepoint are then still the runner's: no statement sent as one extended-protocol
/// message can end the transaction and leave a savepoint of it behind; when it fails,
/// the rest of its unit, the next probe, is skipped and the run stops), and whatever
/// would outlive a probe outlives the batch, where the seal's identity query, sent
/// as the batch's last unit, sees it (with the transaction status, as
/// `RunSeal.verify` checks them). The batch's first unit checks the seal too (what
/// ran before the batch), with a guard that stops every later unit when it is
/// broken: nothing of the batch runs after a broken seal.
///
/// A statement text that several probes send as the same role is parsed and planned
/// once: it goes as a named prepared statement (`PlanReuse`; issue 18: planning a
/// view of eight joins is most of a read probe's server time). The statements are
/// deallocated when the run ends (`AccessPlanRunner`), all in one round trip.
///
/// A batch may be sent while it is made (`startSending(on:)`, then `sendQueued()`
/// after each relation's probes): the server runs the first relations' probes while
/// the rest are made (issue 18). What is sent, and in what order, is the same.
final class ProbeBatch {
    /// A probe's place in the batch: its unit, and where its statements start in it
    /// (after the previous probe's rollback).
    struct Ticket {
        fileprivate let unit: Int
        fileprivate let first: Int
    }

    /// One unit: its statements and, for each, the role it is parsed as when its plan
    /// may be shared (nil: sent unnamed).
    private struct Unit {
        var statements: [SQL] = []
        var roles: [String?] = []
        /// Whether its first statement is the previous probe's rollback.
        var opensWithRollback = false
    }

    private static let savepoint = "pgwarden_probe"
    private static let rollback: SQL = "rollback to savepoint \(raw: savepoint)"
    private var units: [Unit] = []
    /// The statements that keep the batch's savepoint (set, roll back to, release):
    /// an error there stops the run.
    private var controlStatements: [(unit: Int, index: Int)] = []
    /// Whether the last probe still waits for its rollback, which opens the next unit.
    private var rollbackPending = false
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
    /// Where the batch goes, once it is being sent; how many of its units are sent,
    /// the names they share plans by, and the first error sending met (thrown by `run`).
    private var stream: PipelineStream?
    private var sentUnits = 0
    private var reuse: PlanReuse?
    private var sendError: (any Error)?
    /// The seal's last identity query, once `finishSending` added it.
    private var closingTicket: Ticket?
    /// How many units of `leading` come before the seal's check.
    private let leadingUnits: Int
    /// Persona roles whose own `statement_timeout` is shorter than the run's (role ->
    /// its setting, `8s`): a probe of theirs that it cancels is what the Data API
    /// answers such a request, an outcome of that probe, not the run's limit. (A read
    /// whose policies took 10 s to JIT-compile stopped the whole run, blaming the run's
    /// 30 s.) Its error is reworded so that `AccessPlanLimits.isLimit` does not take it.
    var roleStatementTimeouts: [String: String] = [:]

    /// `leading`: units of pgwarden's own sent first, before the seal's check, each
    /// as it is (unnamed); `run`'s `checkingLeading` reads their outcomes. (The
    /// personas' session rows, when no hook had to read them before their tokens were
    /// made: issue 18, their round trip is the truth's.) One that fails leaves the
    /// transaction aborted, so the seal's check fails too, and nothing of the batch runs.
    init(seal: RunSeal, after before: String, stopsAtLimits: Bool = true, sharesPlans: Bool = true, leading: [[SQL]] = []) {
        self.seal = seal
        self.before = before
        self.stopsAtLimits = stopsAtLimits
        self.sharesPlans = sharesPlans
        units = leading.map { Unit(statements: $0, roles: Array(repeating: nil, count: $0.count)) }
        leadingUnits = leading.count
        // A broken seal makes the guard fail, which skips the savepoint and leaves the
        // transaction aborted: every later unit fails.
        add([RunSeal.identitySQL, seal.guardSQL()])
        addControl("savepoint \(raw: Self.savepoint)")
    }

    /// Starts sending on `connection`: from now on `sendQueued()` sends what was made
    /// since it was last called. Nothing else may use the connection until `run`.
    func startSending(on connection: Connection) throws {
        precondition(stream == nil, "a probe batch started twice")
        stream = try PipelineStream(connection, first: units.lazy.flatMap(\.statements).first?.text ?? RunSeal.identitySQL.text)
        reuse = PlanReuse(connection: connection)
        sendQueued()
    }

    /// Sends the units made since the last call (all but the one still being made),
    /// once `startSending` was called. Call it after each group of probes whose texts
    /// repeat among themselves (the runner: after each relation): which texts share a
    /// plan is decided for the units sent together (`PlanReuse`). An error stops the
    /// sending; `run` throws it.
    func sendQueued() {
        sendUnits(upTo: units.count - 1)
    }

    private func sendUnits(upTo end: Int) {
        guard let stream, sendError == nil, sentUnits < end else { return }
        do {
            let window = units[sentUnits..<end]
            let statements = reuse!.statements(
                ofUnits: window.map { ($0.statements, $0.roles) }, startingAt: sentUnits)
            for unit in statements {
                try stream.send(unit)
                sentUnits += 1
            }
        } catch {
            sendError = error
        }
    }

    /// Starts a unit, opened by the last probe's rollback when one is pending.
    @discardableResult
    private func openUnit() -> Int {
        units.append(Unit())
        if rollbackPending {
            rollbackPending = false
            units[units.count - 1].opensWithRollback = true
            addControl(Self.rollback)
        }
        return units.count - 1
    }

    @discardableResult
    private func add(_ statements: [SQL], parsedAs role: String? = nil) -> Ticket {
        let unit = openUnit()
        let first = units[unit].statements.count
        units[unit].statements += statements
        units[unit].roles += Array(repeating: sharesPlans ? role : nil, count: statements.count)
        return Ticket(unit: unit, first: first)
    }

    /// Adds a statement that keeps the savepoint to the unit being built.
    private func addControl(_ statement: SQL) {
        if units.isEmpty { units.append(Unit()) }
        let unit = units.count - 1
        controlStatements.append((unit, units[unit].statements.count))
        units[unit].statements.append(statement)
        units[unit].roles.append(sharesPlans ? PlanReuse.anyRole : nil)
    }

    /// Adds statements that run in order and are rolled back after them. `role`: the
    /// role all of them are parsed as (the one the unit's first statement switches
    /// to, or the admin's); when given, a statement whose text another probe sends
    /// as the same role shares its plan. Leave it nil for plan SQL: a statement that
    /// may change the role makes the role of the statements after it unknown.
    func rolledBack(_ statements: [SQL], parsedAs role: String? = nil) -> Ticket {
        let ticket = add(statements, parsedAs: role)
        rollbackPending = true
        return ticket
    }

    /// Ends the batch (the savepoint's release, then the seal's last identity query)
    /// and sends all of it: nothing more may be added. `run` then reads it; meanwhile
    /// the caller may do what does not need the connection.
    func finishSending(on connection: Connection) throws {
        guard closingTicket == nil else { return }
        openUnit()
        addControl("release savepoint \(raw: Self.savepoint)")
        closingTicket = add([RunSeal.identitySQL])
        if stream == nil { try startSending(on: connection) }
        sendUnits(upTo: units.count)
        if let sendError { throw sendError }
    }

    /// Sends everything (`finishSending`), reads every outcome, then checks that every
    /// probe was rolled back and that the seal holds. A limit that ran out (a lock wait,
    /// a long statement) stops the run, as it would have one probe at a time.
    /// `checkingLeading` reads the leading units' outcomes first (what it throws is thrown).
    func run(
        _ connection: Connection, after origin: String,
        checkingLeading: ([[PipelinedBatch.Outcome]]) throws -> Void = { _ in }
    ) throws {
        try finishSending(on: connection)
        let last = closingTicket!
        outcomes = try stream!.finish().enumerated().map { unit, results in roleTimeoutsMarked(results, unit: unit) }
        try checkingLeading(Array(outcomes.prefix(leadingUnits)))
        try seal.check(identity: try outcomes[leadingUnits][0].get().rows.first ?? [], after: before)
        for (unit, index) in controlStatements {
            if case .error(let error) = outcomes[unit][index] {
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
        try seal.check(identity: try outcomes[last.unit][last.first].get().rows.first ?? [], after: origin)
        try runAgainWithoutSharedPlans(reuse!.unitsMissingTheirPlan(outcomes), connection, after: origin)
    }

    /// `results` of unit `unit`, a cancellation by its persona role's own shorter
    /// `statement_timeout` (`roleStatementTimeouts`) reworded as that role's.
    private func roleTimeoutsMarked(_ results: [PipelinedBatch.Outcome], unit: Int) -> [PipelinedBatch.Outcome] {
        // Only a unit a statement timeout cancelled is looked at (the run's hot path).
        func cancelled(_ outcome: PipelinedBatch.Outcome) -> Bool {
            if case .error(let error) = outcome { return error.sqlState == .queryCanceled && AccessPlanLimits.isLimit(error) }
            return false
        }
        guard !roleStatementTimeouts.isEmpty, unit < units.count, results.contains(where: cancelled),
              let role = units[unit].roles.lazy.compactMap({ $0 }).first(where: { self.roleStatementTimeouts[$0] != nil }),
              let timeout = roleStatementTimeouts[role] else { return results }
        return results.map { outcome in
            guard cancelled(outcome), case .error(var error) = outcome else { return outcome }
            error.message = "canceled: it ran longer than \(role)'s own statement_timeout (\(timeout)), "
                + "as the Data API cancels such a request"
            return .error(error)
        }
    }

    /// Runs again, each statement unnamed, the probes that were to use a shared plan
    /// whose Parse failed or was skipped (they got 26000): every probe is rolled back,
    /// so running it later is running it from the same state.
    private func runAgainWithoutSharedPlans(_ units: [Int], _ connection: Connection, after origin: String) throws {
        guard !units.isEmpty else { return }
        let again = ProbeBatch(seal: seal, after: origin, stopsAtLimits: stopsAtLimits, sharesPlans: false)
        again.roleStatementTimeouts = roleStatementTimeouts
        let probes = units.map { unit in
            let first = self.units[unit].opensWithRollback ? 1 : 0
            return (unit, first, again.rolledBack(Array(self.units[unit].statements.dropFirst(first))))
        }
        try again.run(connection, after: origin)
        for (unit, first, ticket) in probes {
            outcomes[unit] = Array(outcomes[unit].prefix(first)) + (try again.outcomes(ticket))
        }
    }

    /// The outcome of each statement of a probe, in the order they were given.
    func outcomes(_ ticket: Ticket) throws -> [PipelinedBatch.Outcome] {
        Array(outcomes[ticket.unit][ticket.first...])
    }
}
