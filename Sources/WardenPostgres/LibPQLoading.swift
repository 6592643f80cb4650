import CLibPQ

/// libpq is loaded by pgwarden itself, when first needed (`LibPQLoader.c`), not by
/// the dynamic linker when the process starts: its two dozen libraries cost about
/// 8 ms of every start (issue 18).
public enum LibPQLoading {
    /// Starts loading libpq on a thread of its own; the first libpq call waits for it.
    /// Call it first thing: the load then overlaps what the process does before it
    /// connects.
    public static func start() {
        pgwarden_libpq_preload()
    }

    /// Why libpq could not be loaded (waits for the load); nil when it is loaded.
    public static var failure: String? {
        pgwarden_libpq_load_error().map { String(cString: $0) }
    }

    /// Throws, as a connection failure (`PGError.Kind.connection`), when libpq could
    /// not be loaded. Every way into libpq starts with it (reading connection settings,
    /// connecting, pinging), so a host without libpq gets this error, not a crash.
    static func require() throws {
        guard let failure else { return }
        throw PGError(
            kind: .connection,
            message: "\(failure); libpq 14 or newer is needed (Debian, Ubuntu: apt-get install libpq5)")
    }
}
