import WardenKit

extension ProjectAPISettings {
    /// These settings for a run on `connection`: config.toml's exposed schemas that the
    /// database does not have are left out, each named in a note on standard error (a
    /// schema a migration will create is not an error, as it is not for the Supabase CLI).
    /// The authenticator role's own `pgrst.db_schemas`, where the database sets one,
    /// names the exposed schemas instead, as PostgREST reads it; a note says so.
    func forDatabase(_ connection: Connection) throws -> ProjectAPISettings {
        let (inDatabase, setting) = try withInDatabaseSchemas(on: connection)
        if let setting {
            Terminal.note("note: the database sets authenticator's pgrst.db_schemas to '\(setting)', which PostgREST "
                + "reads over config.toml: exposed schemas \(inDatabase.exposedSchemas.joined(separator: ", "))")
        }
        let (settings, missing) = try inDatabase.leavingOutMissingSchemas(on: connection)
        // Named by where the list came from (the authenticator's setting named them too).
        let source = setting == nil ? "config.toml's [api] schemas" : "authenticator's pgrst.db_schemas"
        for name in missing {
            Terminal.note("note: \(source) names '\(name)', which the database does not have: left out")
        }
        return settings
    }
}
