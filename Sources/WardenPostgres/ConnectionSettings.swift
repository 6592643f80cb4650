import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where and how to connect, in any form `psql` accepts: a URL
/// (`postgres://user:pass@host:port/db?sslmode=require`, Unix-socket hosts as
/// `?host=/path` or a percent-encoded host), a `key=value` conninfo string, or
/// nothing at all, in which case libpq reads `PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE`, `PGSERVICE` and `~/.pgpass` itself.
///
/// Parsing is libpq's own (`PQconninfoParse`), so what is accepted here is exactly
/// what `psql` accepts. `description` is redacted: it never shows a password.
public struct ConnectionSettings: Sendable, CustomStringConvertible, Equatable {
    /// The connection string as given (empty means libpq's environment).
    public let conninfo: String
    /// The options the string sets explicitly (not defaults or environment).
    public let parameters: [String: String]

    /// Parses a URL or `key=value` string; throws `.invalidConnectionString` (redacted).
    public init(_ conninfo: String) throws {
        let trimmed = conninfo.trimmingWhitespace()
        self.conninfo = trimmed
        self.parameters = try Self.parse(trimmed)
    }

    /// libpq's defaults and `PG*` environment, as `psql` with no arguments.
    public static var environment: ConnectionSettings {
        // Parsing the empty string cannot fail.
        try! ConnectionSettings("")
    }

    /// True when the string is a `postgres://` or `postgresql://` URL.
    public var isURL: Bool {
        conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://")
    }

    /// The secret to keep out of every message: the string's password, else `PGPASSWORD`.
    var secret: String? {
        if let password = parameters["password"], !password.isEmpty { return password }
        if let env = getenv("PGPASSWORD") {
            let value = String(cString: env)
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The connection string with any password replaced by `****`.
    public var redacted: String {
        if conninfo.isEmpty { return "(libpq environment)" }
        if isURL { return Redaction.redactURL(conninfo) }
        return parameters.keys.sorted().map { key in
            let value = key == "password" ? "****" : parameters[key]!
            return "\(key)=\(Redaction.quoteConninfoValue(value))"
        }.joined(separator: " ")
    }

    public var description: String { redacted }

    /// Removes this connection's password from a message (libpq echoes input back in
    /// some errors), and redacts anything that looks like a URL with credentials.
    public func scrub(_ text: String) -> String {
        Redaction.scrub(text, secret: secret)
    }

    /// A copy that connects to another database on the same server.
    public func withDatabase(_ name: String) -> ConnectionSettings {
        var options = parameters
        options["dbname"] = name
        let text = options.keys.sorted().map { "\($0)=\(Redaction.quoteConninfoValue(options[$0]!))" }
            .joined(separator: " ")
        return try! ConnectionSettings(text)
    }

    private static func parse(_ conninfo: String) throws -> [String: String] {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            var message = "invalid connection string"
            if let errorMessage {
                message = String(cString: errorMessage).trimmingWhitespace()
                PQfreemem(errorMessage)
            }
            // The message may quote part of the input: scrub whatever looks like a secret.
            let scrubbed = Redaction.scrub(message, secret: Redaction.passwordCandidate(in: conninfo))
            throw PGError(kind: .invalidConnectionString, message: scrubbed)
        }
        defer { PQconninfoFree(options) }
        var result: [String: String] = [:]
        var cursor = options
        while let keyword = cursor.pointee.keyword {
            if let value = cursor.pointee.val {
                result[String(cString: keyword)] = String(cString: value)
            }
            cursor += 1
        }
        return result
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
