import WardenPostgres

/// Facts about a server, read over a connection.
public enum ServerInfo {
    /// The server's version string, e.g. `15.18 (Debian 15.18-0+deb12u1)`.
    public static func version(of settings: ConnectionSettings) throws -> String {
        let connection = try Connection(settings)
        return try connection.query("show server_version").scalar ?? "unknown"
    }
}
