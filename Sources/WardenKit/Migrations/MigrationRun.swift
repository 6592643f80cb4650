/// What happens during a run, for progress display.
public enum MigrationEvent: Sendable {
    /// Another run holds the lock; this one waits at most this long (nil: no limit).
    case waitingForLock(timeout: Duration?)
    /// A migration's section starts.
    case started(version: String, name: String, direction: MigrationDirection)
    /// A migration's section finished and its history change is committed.
    case finished(version: String, name: String, direction: MigrationDirection, duration: Duration)
    /// Something the user should know that does not stop the run.
    case warning(String)
    /// Something pgwarden did on the user's behalf, worth one line (not a problem).
    case note(String)
}

/// What a run did (or, for a dry run, would do).
public struct MigrationRun: Sendable {
    /// One migration run in one direction.
    public struct Step: Sendable, Equatable {
        public let version: String
        public let name: String
        public let direction: MigrationDirection
        /// How long the section took (whole milliseconds, as the history records it);
        /// nil in a dry run.
        public let duration: Duration?

        /// A step (for a progress display that draws `.finished` events as `line(for:dryRun:)` does).
        public init(version: String, name: String, direction: MigrationDirection, duration: Duration?) {
            self.version = version
            self.name = name
            self.direction = direction
            self.duration = duration
        }
    }

    /// Which command a run carried out.
    public enum Command: String, Sendable {
        case up, down, redo
    }

    public let command: Command
    public let dryRun: Bool
    public private(set) var steps: [Step] = []
    /// How many steps ran in each direction, kept as steps are added (the Migrator asks
    /// before every migration; counting the steps each time made a run quadratic).
    private var stepsByDirection: [MigrationDirection: Int] = [:]
    /// The run's wall time, round trips and bookkeeping included (nil in a dry run);
    /// the summary line gives it, so a slow link shows in it.
    public internal(set) var elapsed: Duration?

    public init(command: Command, dryRun: Bool, steps: [Step] = []) {
        self.command = command
        self.dryRun = dryRun
        for step in steps { append(step) }
    }

    /// Adds a step.
    mutating func append(_ step: Step) {
        steps.append(step)
        stepsByDirection[step.direction, default: 0] += 1
    }

    /// Adds steps, in order.
    mutating func append(contentsOf steps: [Step]) {
        for step in steps { append(step) }
    }

    /// How many steps of the run so far went in `direction`.
    func stepCount(_ direction: MigrationDirection) -> Int { stepsByDirection[direction] ?? 0 }

    /// One line: what was done (or would be), or that there was nothing to do.
    public var summary: String {
        guard !steps.isEmpty else {
            return command == .up ? "nothing to do: no pending migrations" : "nothing to do: no applied migrations to roll back"
        }
        let ups = steps.filter { $0.direction == .up }.count
        let downs = steps.count - ups
        var parts: [String] = []
        if downs > 0 { parts.append("\(dryRun ? "would roll back" : "rolled back") \(Self.count(downs))") }
        if ups > 0 { parts.append("\(dryRun ? "would apply" : "applied") \(Self.count(ups))") }
        let total = elapsed ?? steps.compactMap(\.duration).reduce(.zero, +)
        return parts.joined(separator: ", then ")
            + (dryRun ? " (dry run: nothing was changed)" : " in \(Self.duration(total))")
    }

    static func count(_ number: Int) -> String { counted(number, "migration") }

    /// The line for one step, e.g. `applied 20261121000100 create_lookup_tables (12 ms)`.
    public static func line(for step: Step, dryRun: Bool) -> String {
        let verb: String
        switch (step.direction, dryRun) {
        case (.up, false): verb = "applied"
        case (.down, false): verb = "rolled back"
        case (.up, true): verb = "would apply"
        case (.down, true): verb = "would roll back"
        }
        return "\(verb) \(step.version) \(step.name)" + (step.duration.map { " (\(duration($0)))" } ?? "")
    }

    /// `12 ms`, or `<1 ms` for what took less than a millisecond.
    public static func duration(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds == 0 ? "<1 ms" : "\(milliseconds) ms"
    }
}
