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
    /// The text, with `$1`, `$2`, ... where values are bound.
    public private(set) var text: String
    /// The bound values in placeholder order, as PostgreSQL's text format; `nil` is NULL.
    public private(set) var bindings: [String?]

    public init(stringLiteral value: String) {
        text = value
        bindings = []
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        bindings = stringInterpolation.bindings
    }

    /// Trusted SQL text with no parameters (the caller vouches for it).
    public init(raw text: String) {
        self.text = text
        bindings = []
    }

    /// The text only (values are shown as their placeholders, so nothing bound leaks).
    public var description: String { text }

    /// Appends another fragment, renumbering its placeholders.
    public mutating func append(_ other: SQL) {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        interpolation.text = text
        interpolation.bindings = bindings
        interpolation.appendInterpolation(other)
        text = interpolation.text
        bindings = interpolation.bindings
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
        var text = ""
        var bindings: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// A value bound as a parameter (`nil` binds NULL).
        public mutating func appendInterpolation(_ value: (some SQLBindable)?) {
            bindings.append(value?.sqlText)
            text += "$\(bindings.count)"
        }

        /// A text array bound as one parameter (cast it in SQL, e.g. `\(array: names)::text[]`).
        public mutating func appendInterpolation(array values: [String]) {
            appendInterpolation(SQLArrayLiteral.encode(values))
        }

        /// An identifier, double-quoted (`"my table"`, embedded quotes doubled).
        public mutating func appendInterpolation(identifier: String) {
            text += SQL.quoteIdentifier(identifier)
        }

        /// A schema-qualified name, each part quoted.
        public mutating func appendInterpolation(identifier schema: String, _ name: String) {
            text += SQL.quoteIdentifier(schema) + "." + SQL.quoteIdentifier(name)
        }

        /// A string literal quoted into the text, for the few statements that take no
        /// parameters (`SET`, `CREATE DATABASE ... OWNER`, utility commands).
        public mutating func appendInterpolation(literal: String) {
            text += SQL.quoteLiteral(literal)
        }

        /// Another SQL fragment, its placeholders renumbered after ours.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.bindings.isEmpty
                ? fragment.text : Self.renumber(fragment.text, offset: bindings.count)
            bindings += fragment.bindings
        }

        /// Trusted SQL text, inserted as it is.
        public mutating func appendInterpolation(raw: String) { text += raw }

        /// Shifts `$n` placeholders by `offset`. Fragments are made by this type, so
        /// every `$digits` outside quotes is one of its placeholders.
        private static func renumber(_ text: String, offset: Int) -> String {
            var out = ""
            var scalars = text.unicodeScalars.makeIterator()
            var pendingDollar = false
            var digits = ""
            func flush() {
                if pendingDollar {
                    out += digits.isEmpty ? "$" : "$\(Int(digits)! + offset)"
                }
                pendingDollar = false
                digits = ""
            }
            while let scalar = scalars.next() {
                if pendingDollar, ("0"..."9").contains(scalar) {
                    digits.unicodeScalars.append(scalar)
                    continue
                }
                flush()
                if scalar == "$" { pendingDollar = true } else { out.unicodeScalars.append(scalar) }
            }
            flush()
            return out
        }
    }

    /// Quotes an identifier as PostgreSQL's `quote_ident` would, always.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Quotes a string literal as libpq's `PQescapeLiteral` does: quotes doubled, and
    /// with backslashes present an `E'...'` literal with backslashes doubled, so the
    /// value is the same whatever `standard_conforming_strings` says.
    public static func quoteLiteral(_ value: String) -> String {
        let quoted = value.replacingOccurrences(of: "'", with: "''")
        guard value.contains("\\") else { return "'\(quoted)'" }
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
