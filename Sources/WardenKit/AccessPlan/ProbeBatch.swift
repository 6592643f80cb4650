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
final class ProbeBatch {
    /// A probe's place in the batch.
    struct Ticket {
        fileprivate let unit: Int
    }

    private static let savepoint = "pgwarden_probe"
    private var batch = PipelinedBatch()
    private var controlUnits: [Int] = []
    private var outcomes: [[PipelinedBatch.Outcome]] = []
    /// Whether a limit that ran out in any probe stops the run (`run` throws it);
    /// false when the reader handles them (a check may expect 57014).
    private let stopsAtLimits: Bool
    private let seal: RunSeal
    /// What ran before the batch, for the message when the first check fails.
    private let before: String
    private var lastUnit = 0

    init(seal: RunSeal, after before: String, stopsAtLimits: Bool = true) {
        self.seal = seal
        self.before = before
        self.stopsAtLimits = stopsAtLimits
        batch.add([RunSeal.identitySQL, seal.guardSQL()])
        controlUnits.append(batch.add(["savepoint \(raw: Self.savepoint)"]))
    }

    /// Adds statements that run in order and are rolled back after them.
    func rolledBack(_ statements: [SQL]) -> Ticket {
        let unit = batch.add(statements)
        controlUnits.append(batch.add(["rollback to savepoint \(raw: Self.savepoint)"]))
        return Ticket(unit: unit)
    }

    /// Sends everything, reads every outcome, then checks that every probe was
    /// rolled back and that the seal holds. A limit that ran out (a lock wait, a long
    /// statement) stops the run, as it would have one probe at a time.
    func run(_ connection: Connection, after origin: String) throws {
        controlUnits.append(batch.add(["release savepoint \(raw: Self.savepoint)"]))
        lastUnit = batch.add([RunSeal.identitySQL])
        outcomes = try connection.run(batch)
        try seal.check(identity: try outcomes[0][0].get().rows.first ?? [], after: before)
        for unit in controlUnits {
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
    }

    /// The outcome of each statement of a probe, in the order they were given.
    func outcomes(_ ticket: Ticket) throws -> [PipelinedBatch.Outcome] {
        outcomes[ticket.unit]
    }
}
