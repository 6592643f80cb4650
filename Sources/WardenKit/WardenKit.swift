// One `import WardenKit` is enough: the connection layer's types (Connection,
// ConnectionSettings, PGError, SQLState, ...) come with it.
@_exported import WardenPostgres

/// pgwarden's library: migrations, provisioning and the access-plan runner.
public enum WardenKit {
    /// The tool's version, shown by `pgwarden --version`.
    public static let version = "0.1.0"
}
