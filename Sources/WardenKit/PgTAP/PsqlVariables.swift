/// The psql variables of one test file as it runs (each file is a psql session of its
/// own under pg_prove, so none outlive it), and their interpolation into SQL as psql
/// does it (the psql manual, "SQL Interpolation"): `:name` is the value as it is,
/// `:'name'` the value as a literal, `:"name"` as an identifier, `:{?name}` TRUE or
/// FALSE; never inside quotes, dollar quotes or comments, never `::`; a variable that
/// is not set is left as written, so the server reports it.
struct PsqlVariables {
    private(set) var values: [String: String] = [:]

    var isEmpty: Bool { values.isEmpty }

    /// Runs a `\set` or `\unset` (a `\gset` stores a row: `store`).
    mutating func run(_ command: PsqlVariableCommand) {
        switch command {
        case .set(let name, let arguments):
            values[name] = PsqlArguments.split(arguments[...], variables: values).joined()
        case .unset(let name):
            values[name] = nil
        case .gset:
            break
        }
    }

    /// A `\gset`'s prefix, read now (it may name variables).
    func prefix(_ arguments: String) -> String {
        PsqlArguments.split(arguments[...], variables: values).first ?? ""
    }

    /// Stores one row as psql's `\gset` does: each column as `prefix` + its name, a NULL
    /// unsets it; throws the reason when a name is no valid variable name.
    mutating func store(_ row: [String?], columns: [String], prefix: String) throws(PsqlVariableCommand.Refusal) {
        for (column, value) in zip(columns, row) {
            let name = prefix + column
            guard Self.isValidName(name[...]) else {
                throw .init("\\gset cannot store column \"\(column)\": \"\(name)\" is no valid psql variable name")
            }
            values[name] = value
        }
    }

    /// `text` with every variable reference outside quotes and comments replaced.
    func interpolate(_ text: String) -> String {
        guard !values.isEmpty, text.contains(":") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var copied = 0
        var skipUntil = 0
        for mark in StatementSplitter.psqlMarks(text) where mark >= skipUntil && scalars[mark] == ":" {
            if mark + 1 < scalars.count, scalars[mark + 1] == ":" {
                skipUntil = mark + 2  // a `::` cast, as psql reads it
                continue
            }
            guard let (value, end) = Self.reference(in: scalars, at: mark, variables: values) else { continue }
            result.append(contentsOf: scalars[copied..<mark])
            result.append(contentsOf: value.unicodeScalars)
            copied = end
            skipUntil = end
        }
        result.append(contentsOf: scalars[copied...])
        return String(result)
    }

    /// The value of the reference at `index` (a colon) and where it ends, or nil when
    /// there is none or its variable is not set.
    static func reference(
        in scalars: [Unicode.Scalar], at index: Int, variables: [String: String]
    ) -> (value: String, end: Int)? {
        func name(from start: Int) -> (String, Int)? {
            var end = start
            while end < scalars.count, isNameScalar(scalars[end]) { end += 1 }
            return end > start ? (String(String.UnicodeScalarView(scalars[start..<end])), end) : nil
        }
        guard index + 1 < scalars.count else { return nil }
        let next = scalars[index + 1]
        if next == "'" || next == "\"" {
            guard let (variable, end) = name(from: index + 2), end < scalars.count, scalars[end] == next,
                  let value = variables[variable]
            else { return nil }
            return (next == "'" ? literal(value) : identifier(value), end + 1)
        }
        if next == "{", index + 2 < scalars.count, scalars[index + 2] == "?" {
            guard let (variable, end) = name(from: index + 3), end < scalars.count, scalars[end] == "}" else { return nil }
            return (variables[variable] == nil ? "FALSE" : "TRUE", end + 1)
        }
        guard let (variable, end) = name(from: index + 1), let value = variables[variable] else { return nil }
        return (value, end)
    }

    /// `value` as a SQL literal, as psql quotes it (libpq's `PQescapeLiteral`): quotes
    /// doubled, and when it holds a backslash, ` E'...'` with backslashes doubled.
    static func literal(_ value: String) -> String {
        let quoted = value.replacingOccurrences(of: "'", with: "''")
        guard value.contains("\\") else { return "'" + quoted + "'" }
        return " E'" + quoted.replacingOccurrences(of: "\\", with: "\\\\") + "'"
    }

    /// `value` as a quoted SQL identifier (libpq's `PQescapeIdentifier`).
    static func identifier(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A psql variable name: letters, digits, underscores (and non-ASCII letters).
    static func isValidName(_ name: Substring) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isNameScalar)
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x80 || scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || ("0"..."9").contains(scalar)
    }
}
