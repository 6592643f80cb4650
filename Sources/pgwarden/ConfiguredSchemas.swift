import WardenKit

extension ProjectAPISettings {
    /// These settings for a run on `connection`: config.toml's exposed schemas that the
    /// database does not have are left out, each named in a note on standard error (a
    /// schema a migration will create is not an error, as it is not for the Supabase CLI).
    func forDatabase(_ connection: Connection) throws -> ProjectAPISettings {
        let (settings, missing) = try leavingOutMissingSchemas(on: connection)
        for name in missing {
            Terminal.note("note: config.toml's [api] schemas names '\(name)', which the database does not have: left out")
        }
        return settings
    }
}
