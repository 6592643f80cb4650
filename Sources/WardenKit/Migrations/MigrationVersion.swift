/// A migration's version: the digits before the first `_` of its file name.
///
/// Versions compare as numbers, so `0001` and `1` are the same version (two files
/// with them are duplicates) and `9` comes before `10`. The digits as written are
/// kept for display and for the history table.
public struct MigrationVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The digits as written in the file name (or on the command line).
    public let text: String
    /// The digits without leading zeros (`"0"` for all zeros): what equality uses.
    public let normalized: String

    /// Accepts a non-empty string of ASCII digits; returns nil for anything else.
    public init?(_ text: String) {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0 >= "0" && $0 <= "9" }) else {
            return nil
        }
        self.text = text
        let significant = text.drop { $0 == "0" }
        normalized = significant.isEmpty ? "0" : String(significant)
    }

    public var description: String { text }

    public static func == (lhs: MigrationVersion, rhs: MigrationVersion) -> Bool {
        lhs.normalized == rhs.normalized
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(normalized)
    }

    /// Numeric order, for any number of digits.
    public static func < (lhs: MigrationVersion, rhs: MigrationVersion) -> Bool {
        if lhs.normalized.count != rhs.normalized.count {
            return lhs.normalized.count < rhs.normalized.count
        }
        return lhs.normalized < rhs.normalized
    }
}
