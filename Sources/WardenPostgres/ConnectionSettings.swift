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

    /// Settings from options given one by one (values quoted as conninfo needs, so a
    /// path with spaces or quotes stays one value). Nothing to parse, so nothing fails.
    public init(options: [String: String]) {
        conninfo = Redaction.keyValueUnmasked(options: options)
        parameters = options
    }

    /// libpq's defaults and `PG*` environment, as `psql` with no arguments.
    public static var environment: ConnectionSettings { ConnectionSettings(options: [:]) }

    /// True when the string is a `postgres://` or `postgresql://` URL.
    public var isURL: Bool { urlScheme != nil }

    private var urlScheme: String? {
        ["postgresql://", "postgres://"].first { conninfo.hasPrefix($0) }
    }

    /// A URL whose `@` libpq did not read as the end of `user:password`: parts of the
    /// password may sit in the host, port, user or database name.
    private var isMisreadURL: Bool {
        guard isURL else { return false }
        return ["user", "host", "port", "dbname"].contains { parameters[$0]?.contains("@") == true }
    }

    /// A misread URL whose stray `@` (or an `@` after a `/`) sits before the query:
    /// an unencoded `@` or `/` in the user name or password, of which libpq would send a
    /// piece to the host-name lookup, or use as a port or database name. (An `@` in a
    /// query value, e.g. a socket folder in `?host=`, is not stray.)
    package var hasStrayAtSign: Bool {
        guard isMisreadURL, let scheme = urlScheme else { return false }
        let beforeQuery = conninfo.dropFirst(scheme.count).prefix { $0 != "?" }
        guard let at = beforeQuery.firstIndex(of: "@") else { return false }
        if beforeQuery[beforeQuery.index(after: at)...].contains("@") { return true }
        return beforeQuery[..<at].contains("/")
    }

    /// The secrets to keep out of every message: every secret option's value (the
    /// password, the client key's `sslpassword`; else their environment variables), and
    /// for a misread URL every part that may hold a piece of it.
    var secrets: [String] {
        var found: [String] = []
        for option in Redaction.secretOptions {
            if let value = parameters[option.keyword], !value.isEmpty {
                found.append(value)
            } else if let name = option.environment, let env = getenv(name), !String(cString: env).isEmpty {
                found.append(String(cString: env))
            }
        }
        if isMisreadURL {
            let parts = ["user", "host", "port", "dbname"].compactMap { parameters[$0] }
            found += parts + parts.flatMap { $0.split(whereSeparator: { $0 == "@" || $0 == "/" }).map(String.init) }
            found = found.filter { !$0.isEmpty }
        }
        return found.sorted { $0.count > $1.count }
    }

    /// The connection as text, rebuilt from the parsed options with any password
    /// replaced by `****` (a URL stays a URL, `key=value` stays `key=value`).
    public var redacted: String {
        if conninfo.isEmpty { return "(libpq environment)" }
        guard let scheme = urlScheme else { return Redaction.keyValue(options: parameters) }
        if isMisreadURL { return Redaction.misreadURL(scheme: scheme) }
        return Redaction.url(scheme: scheme, options: parameters)
    }

    public var description: String { redacted }

    /// Removes this connection's secrets from a message (libpq echoes input back in
    /// some errors), and redacts any connection URL in it.
    public func scrub(_ text: String) -> String {
        Redaction.scrub(text, secrets: secrets)
    }

    /// A copy that connects to another database on the same server.
    public func withDatabase(_ name: String) -> ConnectionSettings {
        var options = parameters
        options["dbname"] = name
        return ConnectionSettings(options: options)
    }

    private static func parse(_ conninfo: String) throws -> [String: String] {
        try LibPQLoading.require()
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            var message = "invalid connection string"
            if let errorMessage {
                message = String(cString: errorMessage).trimmingWhitespace()
                PQfreemem(errorMessage)
            }
            // The message may quote part of the input, which may hold a password: none
            // of it is shown, only quoted option names.
            throw PGError(kind: .invalidConnectionString, message: Redaction.parseFailure(message))
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
