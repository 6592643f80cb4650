/// A project's layout cannot be read: a malformed `supabase/config.toml`, a value of
/// the wrong type in it, or an unreadable file. Nothing was started or changed.
public enum ProjectLayoutError: WardenError, Equatable {
    /// TOML syntax error (line as TOMLKit reports it).
    case malformedConfig(file: String, line: Int?, message: String)
    /// A known key holds a value of the wrong type.
    case configValue(file: String, key: String, expected: String)
    case unreadable(file: String)
    /// A seed path pattern that is no valid glob.
    case badSeedPattern(file: String, pattern: String)

    public var category: ErrorCategory { .badInput }

    public var description: String {
        switch self {
        case .malformedConfig(let file, let line, let message):
            let location = line.map { "\(file):\($0)" } ?? file
            let text = message.split(whereSeparator: \.isNewline).joined(separator: " ")
            return "\(location): malformed config.toml: \(text)"
        case .configValue(let file, let key, let expected):
            return "\(file): \(key) must be \(expected)"
        case .unreadable(let file):
            return "\(file): cannot read the file"
        case .badSeedPattern(let file, let pattern):
            return "\(file): db.seed.sql_paths: \(pattern) is not a valid path pattern"
        }
    }
}
