/// A five-character SQLSTATE code, as PostgreSQL reports it (Appendix A of the manual).
///
/// Matchable in `catch` clauses:
/// `catch let error as PGError where error.sqlState == .insufficientPrivilege`.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The two-character class, e.g. `42` for "syntax error or access rule violation".
    public var errorClass: String { String(rawValue.prefix(2)) }
    public var description: String { rawValue }

    public static let successfulCompletion: SQLState = "00000"
    public static let connectionFailure: SQLState = "08006"
    public static let sqlClientUnableToEstablishConnection: SQLState = "08001"
    public static let featureNotSupported: SQLState = "0A000"
    public static let invalidTransactionState: SQLState = "25000"
    public static let inFailedTransaction: SQLState = "25P02"
    public static let invalidAuthorizationSpecification: SQLState = "28000"
    public static let invalidPassword: SQLState = "28P01"
    public static let uniqueViolation: SQLState = "23505"
    public static let foreignKeyViolation: SQLState = "23503"
    public static let notNullViolation: SQLState = "23502"
    public static let checkViolation: SQLState = "23514"
    public static let syntaxError: SQLState = "42601"
    public static let insufficientPrivilege: SQLState = "42501"
    public static let undefinedTable: SQLState = "42P01"
    public static let undefinedColumn: SQLState = "42703"
    public static let undefinedFunction: SQLState = "42883"
    public static let undefinedObject: SQLState = "42704"
    public static let duplicateObject: SQLState = "42710"
    public static let duplicateTable: SQLState = "42P07"
    public static let divisionByZero: SQLState = "22012"
    public static let invalidTextRepresentation: SQLState = "22P02"
    public static let invalidParameterValue: SQLState = "22023"
    public static let raiseException: SQLState = "P0001"
    public static let queryCanceled: SQLState = "57014"
    public static let lockNotAvailable: SQLState = "55P03"
    /// e.g. reading a materialized view that was never refreshed (`with no data`).
    public static let objectNotInPrerequisiteState: SQLState = "55000"
    public static let activeSQLTransaction: SQLState = "25001"
    public static let invalidCatalogName: SQLState = "3D000"
}
