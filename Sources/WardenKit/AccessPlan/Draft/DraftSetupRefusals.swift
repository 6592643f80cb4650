import WardenPostgres

/// Why the draft's setup made no row for a table: on purpose (`skipped`), or because
/// the database refused it. Each setup entry catches its own
/// error and raises a notice, `plan draft: no rows for <table>: <error>`
/// (`DraftOwnership.setupRows`), read here while the observation runs on the
/// connection. A cell that then had no row to probe names that error in its note.
final class DraftSetupRefusals {
    static let prefix = "plan draft: no rows for "

    /// The notices' text after the prefix (`<table>: <error>`), in the order raised.
    private var messages: [String] = []
    /// Table -> why the draft gives the personas no row of it on purpose
    /// (`DraftOwnership.setupSkipReason`).
    var skipped: [String: String] = [:]

    /// Runs `body` with the connection's notices read (and still passed on to the
    /// handler it had).
    func reading<T>(_ connection: Connection, _ body: () throws -> T) rethrows -> T {
        let previous = connection.noticeHandler
        connection.onNotice { [weak self] notice in
            if notice.message.hasPrefix(Self.prefix) { self?.messages.append(String(notice.message.dropFirst(Self.prefix.count))) }
            previous(notice)
        }
        defer { connection.onNotice(previous) }
        return try body()
    }

    /// `table`'s setup rows were made, but a deferred constraint refused them at commit
    /// (`DeferredSetupRefusal`): the draft leaves them out.
    func refusedAtCommit(_ table: String, _ message: String) {
        messages.append("\(table): \(message), when the transaction commits (a deferred constraint)")
    }

    /// The server's error for `table`'s setup row, when its setup raised one.
    func reason(for table: String) -> String? {
        messages.first { $0.hasPrefix(table + ": ") }.map { String($0.dropFirst(table.count + 2)) }
    }

    /// `note`, with the setup's error for `table` when the note is about a missing row.
    func explain(_ note: String, table: String) -> String {
        // Also where the table had rows of its own (seeded), none the persona's: "give
        // the persona a row" without the setup's refusal sent the user to write the row
        // the draft had tried.
        guard note.contains("cannot probe: there is no such row") || note.contains("has no rows at all (as the admin too)")
                || (note.contains("cannot probe: the owner rule") && note.contains(RelationProber.noOwnRowAdvice))
        else { return note }
        if skipped[table] != nil { return note + " (the draft gives the personas no row here: see the NOTE above)" }
        guard let reason = reason(for: table) else { return note }
        return note + " (the draft's setup row was refused: \(reason))"
    }
}
