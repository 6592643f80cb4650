import ArgumentParser
import Foundation
import WardenPostgres
import WardenKit

/// Turns any error into a readable message on standard error and a documented exit code.
enum ErrorReporter {
    /// Runs a command's body; errors are printed as `pgwarden: <message>` and mapped to
    /// an exit code. ArgumentParser's own errors and exit codes pass through.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError(error)
            // Ctrl-C (SIGINT), SIGTERM, SIGHUP cancel the running statement; the error
            // that follows exits like the signal did, whichever thread gets there first.
            if let signal = InterruptHandler.shared.receivedSignal { throw ExitCode(128 + signal) }
            throw exitCode(for: error)
        }
    }

    static func printError(_ error: Error) {
        var text = "pgwarden: \(oneLine(error))"
        if let hint = ErrorHint.hint(for: error) { text += hint.inline ? "; \(hint.text)" : "\nhint: \(hint.text)" }
        if let error = error as? PGError, error.kind == .connection, nothingConfigured {
            text += "; no database was given: pass --database-url or set DATABASE_URL"
                + " (or run `pgwarden dev` for a throwaway local server)"
        }
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
    }

    /// A connection failure in one line: libpq's multi-line message joined with "; ".
    static func oneLine(_ error: Error) -> Error {
        guard var error = error as? PGError, error.kind == .connection else { return error }
        error.message = error.message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
        return error
    }

    /// True when no database was named (`DatabaseTarget.nothingGiven`; `--database-url`
    /// read from the command line, as the error may come before the options are parsed).
    private static var nothingConfigured: Bool {
        DatabaseTarget.nothingGiven(url: CommandLine.arguments.contains { $0.hasPrefix("--database-url") } ? "given" : nil)
    }

    /// The exit code of an error, from its category alone (see README's "Exit status").
    /// An error that is not a `WardenError` exits 1.
    static func exitCode(for error: Error) -> ExitCode {
        switch error.wardenCategory {
        case .sqlFailed, .interrupted, .misuse: return ExitStatus.failure
        case .refused: return ExitStatus.drift
        case .invalidSettings: return ExitStatus.usage
        case .badInput: return ExitStatus.badInput
        case .unavailable: return ExitStatus.unavailable
        case .cannotWrite: return ExitStatus.cannotCreate
        case .lockTimeout: return ExitStatus.lockTimeout
        }
    }
}
