/// SQL text with its parameters, built one way: by string interpolation.
///
/// Interpolated values are never spliced into the text: each becomes a `$n`
/// placeholder bound as a parameter. Identifiers go through `\(identifier:)`, which
/// quotes them. Only `\(raw:)` inserts text as SQL, for SQL the user wrote on purpose
/// (a plan's condition, a migration's body) or fragments built from other `SQL` values.
///
/// ```swift
/// let rows = try connection.query("select * from \(identifier: table) where owner = \(userID)")
/// ```
public struct SQL: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// Text and bound values, in order, as built: placeholders are numbered only when
    /// the text is read, so joining fragments never rewrites any text (a literal such
    /// as `'costs $1'` stays as written).
    enum Piece: Sendable, Equatable {
        case text(String)
        case value(String?)
    }

    private var pieces: [Piece]

    /// The text, with `$1`, `$2`, ... where values are bound.
    /// (Built by appending into one reserved buffer: a probe batch reads the text of
    /// about two thousand statements before its first byte is sent, issue 18.)
    public var text: String {
        if pieces.count == 1, case .text(let only) = pieces[0] { return only }
        var text = ""
        text.reserveCapacity(pieces.reduce(0) { length, piece in
            if case .text(let part) = piece { return length + part.utf8.count }
            return length + 4
        })
        var number = 0
        for piece in pieces {
            switch piece {
            case .text(let part): text.append(part)
            case .value:
                number += 1
                text.append("$")
                text.append(String(number))
            }
        }
        return text
    }

    /// The bound values in placeholder order, as PostgreSQL's text format; `nil` is NULL.
    public var bindings: [String?] {
        pieces.compactMap { piece in
            if case .value(let value) = piece { return .some(value) }
            return nil
        }
    }

    public init(stringLiteral value: String) {
        pieces = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// Trusted SQL text with no parameters (the caller vouches for it).
    public init(raw text: String) {
        pieces = [.text(text)]
    }

    /// The text only (values are shown as their placeholders, so nothing bound leaks).
    public var description: String { text }

    /// Appends another fragment (its values are bound after ours).
    public mutating func append(_ other: SQL) {
        pieces += other.pieces
    }

    /// Fragments joined with a separator.
    public static func joined(_ parts: [SQL], separator: String) -> SQL {
        var result = SQL(raw: "")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(SQL(raw: separator)) }
            result.append(part)
        }
        return result
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece]

        public init(literalCapacity: Int, interpolationCount: Int) {
            var pieces: [Piece] = []
            pieces.reserveCapacity(2 * interpolationCount + 1)
            self.pieces = pieces
        }

        public mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }

        /// A value bound as a parameter (`nil` binds NULL).
        public mutating func appendInterpolation(_ value: (some SQLBindable)?) {
            pieces.append(.value(value?.sqlText))
        }

        /// A text array bound as one parameter (cast it in SQL, e.g. `\(array: names)::text[]`).
        public mutating func appendInterpolation(array values: [String]) {
            appendInterpolation(SQLArrayLiteral.encode(values))
        }

        /// An identifier, double-quoted (`"my table"`, embedded quotes doubled).
        public mutating func appendInterpolation(identifier: String) {
            pieces.append(.text(SQL.quoteIdentifier(identifier)))
        }

        /// A schema-qualified name, each part quoted.
        public mutating func appendInterpolation(identifier schema: String, _ name: String) {
            pieces.append(.text(SQL.quoteIdentifier(schema) + "." + SQL.quoteIdentifier(name)))
        }

        /// A string literal quoted into the text, for the few statements that take no
        /// parameters (`SET`, `CREATE DATABASE ... OWNER`, utility commands).
        public mutating func appendInterpolation(literal: String) {
            pieces.append(.text(SQL.quoteLiteral(literal)))
        }

        /// Another SQL fragment: its values are bound after ours.
        public mutating func appendInterpolation(_ fragment: SQL) {
            pieces += fragment.pieces
        }

        /// Trusted SQL text, inserted as it is.
        public mutating func appendInterpolation(raw: String) { pieces.append(.text(raw)) }
    }

    /// Quotes an identifier as PostgreSQL's `quote_ident` would, always.
    public static func quoteIdentifier(_ name: String) -> String {
        // Foundation's `replacingOccurrences` costs microseconds a call on Linux, and
        // a plan's probes quote thousands of names: most have no quote to double.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Quotes a string literal as libpq's `PQescapeLiteral` does: quotes doubled, and
    /// with backslashes present an `E'...'` literal with backslashes doubled, so the
    /// value is the same whatever `standard_conforming_strings` says.
    public static func quoteLiteral(_ value: String) -> String {
        let quoted = value.utf8.contains(UInt8(ascii: "'")) ? value.replacingOccurrences(of: "'", with: "''") : value
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return "'\(quoted)'" }
        return " E'" + quoted.replacingOccurrences(of: "\\", with: "\\\\") + "'"
    }
}

/// A Swift value that binds as a PostgreSQL parameter in text format.
public protocol SQLBindable {
    /// The value as PostgreSQL's text input format reads it.
    var sqlText: String { get }
}

extension String: SQLBindable { public var sqlText: String { self } }
extension Substring: SQLBindable { public var sqlText: String { String(self) } }
extension Int: SQLBindable { public var sqlText: String { String(self) } }
extension Int64: SQLBindable { public var sqlText: String { String(self) } }
extension Bool: SQLBindable { public var sqlText: String { self ? "true" : "false" } }
extension Double: SQLBindable { public var sqlText: String { String(self) } }
