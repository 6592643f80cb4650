import Foundation

/// A text file read whole, as every input pgwarden reads is (plans, seeds, pgTAP files
/// and their includes, config.toml): the callers name the file and the failure in
/// their own error.
enum TextFile {
    enum Failure: Error, Equatable {
        /// Missing, a folder, or not readable.
        case unreadable
        /// Its bytes are not UTF-8.
        case notUTF8
    }

    /// The file's text.
    static func read(atPath path: String) -> Result<String, Failure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(.unreadable) }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(.notUTF8) }
        return .success(text)
    }
}
