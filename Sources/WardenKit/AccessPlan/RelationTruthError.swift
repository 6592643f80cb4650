/// A relation's owner rule or sample SQL failed on its rows while the run computed
/// what is true of it (`split_part(name, '/', 1)::int` on a file whose folder is not a
/// number): the plan's mistake, named with its relation.
public struct RelationTruthError: WardenError, Equatable {
    public var file: String
    public var line: Int?
    /// `schema.name` of the relation.
    public var relation: String
    /// The server's message, with its SQLSTATE.
    public var serverMessage: String

    /// A plan that is wrong is bad input.
    public var category: ErrorCategory { .badInput }

    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return "\(location): \(relation): its owner rule or sample cannot be evaluated on its rows, as the admin with each "
            + "persona's claims: \(serverMessage); write an owner rule and sample that hold for every row (the plan's "
            + "setup rows included)"
    }
}
