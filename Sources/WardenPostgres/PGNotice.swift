/// A NOTICE, WARNING, INFO, LOG or DEBUG message the server sent while a statement ran.
public struct PGNotice: Sendable, CustomStringConvertible {
    public var severity: String
    public var sqlState: SQLState?
    public var message: String
    public var detail: String?
    public var hint: String?

    public var description: String { "\(severity): \(message)" }
}
