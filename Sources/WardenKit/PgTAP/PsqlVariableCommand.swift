/// A psql meta-command that sets or unsets psql variables (the psql manual,
/// "Variables"): `\set name value ...`, `\unset name`, and `query \gset [prefix]`,
/// which stores the query's one row. Its arguments are kept as written and read when
/// it runs (`PsqlArguments`), since they may name variables a `\gset` sets.
enum PsqlVariableCommand: Sendable, Equatable {
    /// `\set name value ...`: the values, concatenated (none: the empty string).
    case set(name: String, arguments: String)
    /// `\unset name`.
    case unset(name: String)
    /// `\gset [prefix]` after a query: each column of its row becomes `prefix` + column name.
    case gset(arguments: String)

    /// psql's settings that change how psql itself runs statements, which pgwarden does
    /// not follow: refused rather than kept as plain variables.
    static let refusedSettings: Set<String> = ["AUTOCOMMIT", "SINGLELINE", "SINGLESTEP", "FETCH_COUNT"]

    /// The command `line` (a whole meta-command line, `\set flow_slug 'my_flow'`) is,
    /// or nil for another meta-command, for a bare `\set` (which lists the variables)
    /// and for `\set` or `\unset` of psql's own settings (`PsqlMetaCommands.psqlSettings`);
    /// throws the reason for one pgwarden cannot run.
    init?(_ line: String) throws(Refusal) {
        let body = line.dropFirst().drop { $0 != " " && $0 != "\t" }
        let name = line.dropFirst().prefix(line.count - 1 - body.count)
        guard name == "set" || name == "unset" || name == "gset" else { return nil }
        if let why = PsqlArguments.refusal(body) { throw Refusal(why) }
        if name == "gset" {
            self = .gset(arguments: String(body))
            return
        }
        let rest = body.drop { $0 == " " || $0 == "\t" }
        let variable = rest.prefix { $0 != " " && $0 != "\t" }
        guard !variable.isEmpty else {
            if name == "set" { return nil }
            throw Refusal("names no variable to unset")
        }
        if PsqlMetaCommands.psqlSettings.contains(String(variable)) { return nil }
        if Self.refusedSettings.contains(String(variable)) {
            throw Refusal("changes how psql runs statements, which pgwarden does not follow (it sends SQL only)")
        }
        guard PsqlVariables.isValidName(variable) else {
            throw Refusal("names no valid psql variable (letters, digits and underscores)")
        }
        let values = rest.dropFirst(variable.count)
        self = name == "set" ? .set(name: String(variable), arguments: String(values)) : .unset(name: String(variable))
    }

    /// Why a variable command cannot run.
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
