import Foundation
import WardenPostgres

/// Applies seed files in order (a folder's, through `Seeder`, or a Supabase project's
/// `[db.seed] sql_paths`): every file is read and checked (UTF-8, no NUL byte, nothing
/// that would end the transaction, touch savepoints or change the role: `SealedSQL`)
/// before anything runs, so "all seed files rolled back" is always the truth; then all
/// run in one transaction, each statement one extended-protocol message. A file's
/// top-level `BEGIN; ... COMMIT;` pairs are dropped, with a note (`Seeds.notes`; as in a migration:
/// what such a COMMIT would end, `SET LOCAL` and the like, ends there too).
///
/// Session settings are allowed, as the Supabase CLI runs a seed on a session of its
/// own: `supabase db dump --data-only` writes pg_dump's `SET statement_timeout = 0;`,
/// `SET row_security = off;` ... and ends with `RESET ALL`. What they set ends with the
/// seeds: when a file has a session setting (`SET` without `LOCAL`, `RESET ALL`), the
/// session's settings are reset (`reset all`) once the seeds are in. A setting that
/// changes how SQL text is read (`standard_conforming_strings = off`) is refused with
/// its line, as in a migration (`SettingCheck`).
package enum SeedScripts {
    /// One seed file, read and checked: its text is what runs.
    package struct Checked: Sendable {
        package let file: URL
        let text: String
        /// Whether it sets anything for the session (`SET` without `LOCAL`, `RESET ALL`).
        let setsSession: Bool
        /// Indices of its statements that are top-level BEGIN/COMMIT pairs, not sent.
        let droppedStatements: [Int]
        /// Their lines, in order (for the note that says so).
        let droppedLines: [Int]

        /// The note for a file whose BEGIN/COMMIT pairs are dropped (nil: none are).
        var note: String? {
            guard !droppedLines.isEmpty else { return nil }
            return "\(file.relativePath): its BEGIN/COMMIT (lines \(droppedLines.map(String.init).joined(separator: ", "))) "
                + "are dropped: it runs in pgwarden's one transaction for the seed files"
        }
    }

    /// Reads and checks the files in order; nothing is applied.
    package static func check(_ files: [URL]) throws -> [Checked] {
        try files.map(read)
    }

    /// Runs checked files in order, as they were read; returns them. A failing file
    /// rolls every seed file back.
    @discardableResult
    package static func apply(
        _ scripts: [Checked], on connection: Connection, observer: (SeedEvent) -> Void = { _ in }
    ) throws -> [URL] {
        let clock = ContinuousClock()
        try connection.inTransaction {
            for script in scripts {
                do {
                    observer(.started(file: script.file))
                    let start = clock.now
                    try SQLScript.run(script.text, dropping: script.droppedStatements, on: connection)
                    observer(.finished(file: script.file, duration: clock.now - start))
                } catch let failure as SQLScript.Failure {
                    let line = SourceText(script.text).location(ofOffset: failure.offset).line
                    throw SeedError(file: script.file.relativePath, line: line, underlying: failure.underlying)
                }
            }
            return .commit
        }
        // A failed seed's settings went with its rollback; a committed one's stay in the
        // session until reset.
        if scripts.contains(where: \.setsSession) { try connection.execute(["reset all"]) }
        return scripts.map(\.file)
    }

    /// A seed file's text, checked, and whether it sets anything for the session
    /// (`SET` without `LOCAL`, `RESET ALL`).
    static func read(_ file: URL) throws -> Checked {
        let shown = file.relativePath
        let text: String
        switch TextFile.read(atPath: file.path) {
        case .success(let read): text = read
        case .failure(.unreadable): throw SeedError(file: shown, message: "cannot read the seed file")
        case .failure(.notUTF8): throw SeedError(file: shown, message: "the seed file is not valid UTF-8")
        }
        // memchr first: the byte-by-byte search is slow on a dump of tens of megabytes.
        if UTF8Bytes.contains(text, 0), let nul = text.utf8.firstIndex(of: 0) {
            let line = 1 + text.utf8[..<nul].lazy.filter { $0 == 0x0A }.count
            throw SeedError(file: shown, line: line, message: "contains a NUL byte (\\0), which PostgreSQL cannot take; remove it")
        }
        // Split once (a seed may be a 50 MB dump): the seal, then the lexing setting.
        // Transaction control passes the seal here only to be checked below: BEGIN and
        // COMMIT as pairs (dropped), anything else refused.
        let (statements, violation) = SealedSQL.checked(
            text, alsoAllowing: [.copyFromStdin, .sessionSetting, .sessionReset, .begin, .commit, .rollback, .twoPhase])
        if let violation {
            throw SeedError(file: shown, line: violation.line, message: violation.message + "; nothing was applied")
        }
        let source = SourceText(text)
        let droppedStatements: [Int]
        do {
            // The Supabase CLI runs a seed file as one batch, in which the file's own
            // BEGIN ... COMMIT commits; here every seed file runs in one transaction of
            // pgwarden's, so such pairs are dropped, as in a migration file.
            droppedStatements = try TransactionControlCheck.balancedPairs(
                statements, line: { source.location(ofOffset: $0.range.lowerBound).line },
                rollback: "ROLLBACK would undo part of the seed while the rest is kept; remove it",
                twoPhase: "two-phase commit cannot run in a seed")
        } catch let refusal as TransactionControlCheck.Refusal {
            throw SeedError(
                file: shown, line: refusal.line,
                message: "`\(refusal.statement)`: \(refusal.problem). pgwarden runs the seed files in one transaction of "
                    + "its own (balanced top-level BEGIN ... COMMIT pairs are dropped); nothing was applied")
        }
        for statement in statements {
            guard let setting = SettingCheck.changedLexingSetting(statement) else { continue }
            throw SeedError(
                file: shown, line: source.location(ofOffset: statement.range.lowerBound).line,
                message: "\(setting) may only be on: pgwarden reads the seed's statements with it on; "
                    + "write E'...' strings for backslash escapes; nothing was applied")
        }
        let setsSession = statements.contains { $0.kind == .sessionSetting || $0.kind == .sessionReset }
        return Checked(
            file: file, text: text, setsSession: setsSession, droppedStatements: droppedStatements,
            droppedLines: droppedStatements.map { source.location(ofOffset: statements[$0].range.lowerBound).line })
    }
}
