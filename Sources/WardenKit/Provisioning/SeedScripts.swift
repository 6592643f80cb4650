import Foundation
import WardenPostgres

/// Applies seed files in order (a folder's, through `Seeder`, or a Supabase project's
/// `[db.seed] sql_paths`): every file is read and checked (UTF-8, no NUL byte, nothing
/// that would end the transaction, touch savepoints or change the role: `SealedSQL`)
/// before anything runs, so "all seed files rolled back" is always the truth; then all
/// run in one transaction, each statement one extended-protocol message.
package enum SeedScripts {
    /// Runs the files in order; returns them. A failing file rolls every seed file back.
    @discardableResult
    package static func apply(_ files: [URL], on connection: Connection) throws -> [URL] {
        let scripts = try files.map { file in (file, try read(file)) }
        try connection.inTransaction {
            for (file, text) in scripts {
                do {
                    try SQLScript.run(text, on: connection)
                } catch let error as PGError {
                    let line = error.position.map { SourceText(text).location(ofOffset: $0 - 1).line }
                    throw SeedError(file: file.relativePath, line: line, underlying: error)
                }
            }
            return .commit
        }
        return files
    }

    /// A seed file's text, checked.
    static func read(_ file: URL) throws -> String {
        let shown = file.relativePath
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw SeedError(file: shown, message: "cannot read the seed file")
        }
        if let nul = data.firstIndex(of: 0) {
            let line = 1 + data[data.startIndex..<nul].filter { $0 == 0x0A }.count
            throw SeedError(file: shown, line: line, message: "contains a NUL byte (\\0), which PostgreSQL cannot take; remove it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SeedError(file: shown, message: "the seed file is not valid UTF-8")
        }
        if let violation = SealedSQL.firstViolation(in: text, alsoAllowing: [.copyFromStdin]) {
            throw SeedError(file: shown, line: violation.line, message: violation.message + "; nothing was applied")
        }
        return text
    }
}
