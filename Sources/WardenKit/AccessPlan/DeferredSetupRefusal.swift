/// The rows the plan's accounts and setup made break a deferred constraint: the checks
/// a commit would run refuse them, so no client's transaction could commit them, and
/// probing them would prove nothing about a state that can exist
/// (`DeferredConstraints.settle`).
public struct DeferredSetupRefusal: WardenError, Equatable {
    public var file: String
    /// Each table whose deferred constraints refused, `schema.name`, with the server's
    /// message and SQLSTATE, in the tables' order.
    public var refusals: [(table: String, message: String)]

    /// A plan that is wrong is bad input.
    public var category: ErrorCategory { .badInput }

    public var description: String {
        let tables = refusals.map { "\($0.table): \($0.message)" }.joined(separator: "; ")
        return "\(file): the plan's accounts and setup leave rows that a deferred constraint refuses at commit (\(tables)): "
            + "no client's transaction could commit them, so nothing would be proved by probing them; "
            + "change the setup so that it could commit"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.file == rhs.file && lhs.refusals.map { [$0.table, $0.message] } == rhs.refusals.map { [$0.table, $0.message] }
    }
}
