import Foundation

/// Work done on another thread while the caller goes on; its outcome (the value, or
/// what the work threw) is read when it is needed, and is the same on every read.
public final class InBackground<Value>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the working thread before `finished` is signalled, read only
    /// after waiting for it.
    private var result: Result<Value, any Error>?

    public init(named name: String, _ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            result = Result { try work() }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// The work's value, once done (waits for it); throws what the work threw.
    public func value() throws -> Value {
        finished.wait()
        finished.signal()  // a second call returns the same outcome
        guard let result else { preconditionFailure("the working thread signalled without a result") }
        return try result.get()
    }
}
