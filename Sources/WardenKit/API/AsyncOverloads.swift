import Dispatch
import Foundation

/// libpq calls block their thread. These overloads run the same work on a thread of
/// their own, so a server's event loop or a Swift concurrency executor never waits
/// on the database. The connection is used by that thread alone until they return.
extension Project {
    /// `provision(on:)` off the caller's executor.
    @discardableResult
    public func provision(on connection: Connection) async throws -> ProvisionSummary {
        try await offload { try provision(on: connection, observer: { _ in }) }
    }
}

extension Migrations {
    /// `up(on:)` off the caller's executor.
    @discardableResult
    public func up(on connection: Connection, to target: MigrationVersion? = nil,
                   options: MigrationRunOptions = .init()) async throws -> MigrationRun
    {
        try await offload { try up(on: connection, to: target, options: options, observer: { _ in }) }
    }

    /// `status(on:)` off the caller's executor.
    public func status(on connection: Connection) async throws -> MigrationStatusReport {
        try await offload { try status(on: connection) }
    }
}

extension AccessPlan {
    /// `prove(on:)` off the caller's executor.
    public func prove(on connection: Connection) async throws -> AccessPlanReport {
        try await offload { try prove(on: connection) }
    }
}

/// Runs blocking work on a dispatch thread and resumes with its result.
func offload<T>(_ work: @escaping () throws -> T) async throws -> T {
    let box = UncheckedBox(work)
    return try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try box.value() })
        }
    }
}

/// Carries a non-Sendable closure to the one thread that runs it.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: () throws -> T
    init(_ value: @escaping () throws -> T) { self.value = value }
}
