import CLibPQ
import Foundation

/// A pipelined batch sent unit by unit, each unit as soon as it is made, then read
/// whole (`Connection.run(_:)` sends a `PipelinedBatch` through one): the server works
/// on the first units while the caller makes the rest, so making them costs no time of
/// the server's (issue 18: on Electric Ride's plan, about 5 ms a batch).
///
/// Each unit goes as `PipelinedBatch` says: every statement its own extended-protocol
/// message (values bound), then a Sync; a failed statement skips the rest of its unit
/// only. `finish()` reads every outcome in the order sent. A stream that is dropped
/// before `finish()` (its maker threw) reads and discards what was sent, so the
/// connection leaves pipeline mode usable.
package final class PipelineStream {
    private let connection: Connection
    private let handle: OpaquePointer
    /// The units sent, in order.
    private var sent: [[PipelinedBatch.Statement]] = []
    private var unflushed = 0
    private var finished = false

    /// Enters pipeline mode on `connection` (one round trip, counted now). `first`: the
    /// first statement's text, named by the error when the connection is closed.
    package init(_ connection: Connection, first: String) throws {
        self.connection = connection
        handle = try connection.openHandle(for: first)
        guard PQenterPipelineMode(handle) == 1 else { throw connection.failure(sql: first) }
        PQsetnonblocking(handle, 1)
    }

    deinit {
        guard !finished else { return }
        _ = try? finish()
    }

    /// Sends one unit: its statements, then a Sync. Never waits for the server's
    /// answers; waits to send only while the socket is full (reading what has come
    /// meanwhile, so neither side waits for the other).
    package func send(_ unit: [PipelinedBatch.Statement]) throws {
        precondition(!finished, "a unit sent on a finished pipeline stream")
        for statement in unit {
            try connection.send(handle, statement)
            unflushed += statement.text.utf8.count
        }
        guard PQpipelineSync(handle) == 1 else { throw connection.failure(sql: unit.last?.text ?? "") }
        sent.append(unit)
        if unflushed >= 64 * 1024 {
            try connection.flushReading(handle, sql: unit.last?.text ?? "")
            unflushed = 0
        }
    }

    /// The number of units sent.
    package var sentUnits: Int { sent.count }

    /// Sends what is left to send, reads every statement's outcome (its result, its
    /// error, or that it was skipped) and leaves pipeline mode. Throws only when the
    /// connection fails. One list of outcomes per unit, one outcome per statement.
    package func finish() throws -> [[PipelinedBatch.Outcome]] {
        precondition(!finished, "a pipeline stream finished twice")
        finished = true
        defer { PQexitPipelineMode(handle) }
        try connection.flushReading(handle, sql: sent.last?.last?.text ?? "")
        PQsetnonblocking(handle, 0)
        return try connection.readOutcomes(of: sent, handle)
    }
}
