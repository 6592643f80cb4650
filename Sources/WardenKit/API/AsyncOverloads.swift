import Foundation

/// libpq calls block their thread. These overloads run the same work on a thread of
/// their own, so a server's event loop or a Swift concurrency executor never waits on
/// the database. They take the connection's *settings*, not a `Connection`: the
/// connection is opened on that thread, used there alone and closed there, so it never
/// crosses threads (`Connection` is not `Sendable`, and nothing here pretends it is).
extension Project {
    /// `provision(on:)` on a connection of its own, off the caller's executor.
    @discardableResult
    public func provision(connectingTo settings: ConnectionSettings) async throws -> ProvisionSummary {
        try await onOwnThread(settings) { connection in try provision(on: connection, observer: { _ in }) }
    }
}

extension Migrations {
    /// `up(on:)` on a connection of its own, off the caller's executor.
    @discardableResult
    public func up(connectingTo settings: ConnectionSettings, to target: MigrationVersion? = nil,
                   options: MigrationRunOptions = .init()) async throws -> MigrationRun
    {
        try await onOwnThread(settings) { connection in
            try up(on: connection, to: target, options: options, observer: { _ in })
        }
    }

    /// `down(_:on:)` on a connection of its own, off the caller's executor.
    @discardableResult
    public func down(_ target: DownTarget = .steps(1), connectingTo settings: ConnectionSettings,
                     options: MigrationRunOptions = .init()) async throws -> MigrationRun
    {
        try await onOwnThread(settings) { connection in
            try down(target, on: connection, options: options, observer: { _ in })
        }
    }

    /// `redo(on:)` on a connection of its own, off the caller's executor.
    @discardableResult
    public func redo(connectingTo settings: ConnectionSettings, options: MigrationRunOptions = .init()) async throws
        -> MigrationRun
    {
        try await onOwnThread(settings) { connection in try redo(on: connection, options: options, observer: { _ in }) }
    }

    /// `status(on:)` on a connection of its own, off the caller's executor.
    public func status(connectingTo settings: ConnectionSettings) async throws -> MigrationStatusReport {
        try await onOwnThread(settings) { connection in try status(on: connection) }
    }
}

extension AccessPlan {
    /// `prove(on:)` on a connection of its own, off the caller's executor.
    public func prove(connectingTo settings: ConnectionSettings) async throws -> AccessPlanReport {
        try await onOwnThread(settings) { connection in try prove(on: connection) }
    }
}

/// Starts a thread that opens a connection with `settings`, runs `work` on it, closes it
/// and resumes with the (Sendable) result. Only Sendable values cross threads.
func onOwnThread<T: Sendable>(
    _ settings: ConnectionSettings, _ work: @escaping @Sendable (Connection) throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result {
                let connection = try Connection(settings)
                defer { connection.close() }
                return try work(connection)
            })
        }
        thread.name = "pgwarden connection"
        thread.start()
    }
}
