/// A mistake in the plan file, reported with its line before anything runs.
public struct AccessPlanError: WardenError, Equatable {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// A plan that is wrong is bad input.
    public var category: ErrorCategory { .badInput }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
