import WardenPostgres

/// A function, relation, type or schema of a platform schema the local twin mirrors
/// only in part (`realtime`, `pgsodium`) that a user's SQL names and this database
/// lacks: which one, and why a fresh Supabase project may have it when the twin does
/// not. docs/supabase-twin.md, "Realtime" and "Stand-ins".
package struct MissingPlatformObject: Equatable, Sendable {
    /// The schema (`realtime`, `pgsodium`).
    package var schema: String
    /// The qualified name, as the server wrote it (`realtime.apply_rls`).
    package var name: String

    /// What of `realtime` the twin makes (TwinRealtime.sql): a missing object with one
    /// of these names is a wrong call (argument types), not a gap.
    static let mirroredRealtime: Set<String> = [
        "realtime.messages", "realtime.subscription", "realtime.topic", "realtime.send", "realtime.send_binary",
        "realtime.broadcast_changes", "realtime.to_regrole", "realtime.action", "realtime.equality_op",
        "realtime.user_defined_filter",
    ]

    /// Recognises "function realtime.x(...) does not exist" (42883), "relation
    /// "realtime.x" does not exist" (42P01), "type "realtime.x" does not exist" (42704)
    /// and "schema "pgsodium" does not exist" (3F000) for the two schemas.
    package init?(_ error: PGError) {
        let message = error.message
        guard message.hasSuffix(" does not exist") else { return nil }
        let subject = message.dropLast(" does not exist".count)
        var qualified: Substring
        switch error.sqlState {
        case .undefinedFunction? where subject.hasPrefix("function "):
            qualified = subject.dropFirst("function ".count).prefix { $0 != "(" }
        case .undefinedTable? where subject.hasPrefix("relation \""):
            qualified = subject.dropFirst("relation \"".count).dropLast()
        case .undefinedObject? where subject.hasPrefix("type \""):
            qualified = subject.dropFirst("type \"".count).dropLast()
        case let state? where state.rawValue == "3F000" && subject.hasPrefix("schema \""):
            qualified = subject.dropFirst("schema \"".count).dropLast()
            guard qualified == "pgsodium" || qualified == "pgsodium_masks" else { return nil }
            schema = String(qualified)
            name = schema
            return
        default:
            return nil
        }
        qualified = qualified.filter { $0 != "\"" }[...]
        guard let dot = qualified.firstIndex(of: ".") else { return nil }
        let schemaName = String(qualified[..<dot])
        guard ["realtime", "pgsodium", "pgsodium_masks"].contains(schemaName) else { return nil }
        let name = String(qualified)
        if schemaName == "realtime", Self.mirroredRealtime.contains(name) { return nil }
        self.schema = schemaName == "pgsodium_masks" ? "pgsodium" : schemaName
        self.name = name
    }

    package var hint: String {
        let elsewhere = "run against a Supabase project or Supabase's own stack (--database-url), or keep the SQL that needs it out of local runs"
        if schema == "realtime" {
            return "a fresh Supabase project's realtime schema has \(name), from the Realtime server's own migrations; "
                + "the local twin mirrors only what projects' SQL uses of it (realtime.messages, realtime.subscription, "
                + "realtime.topic(), realtime.send(), realtime.send_binary(), realtime.broadcast_changes()), not the "
                + "server's internals: \(elsewhere)"
        }
        if name == schema {
            return "the \(name) schema comes with the pgsodium extension (older Supabase projects have it installed): "
                + "add `create extension if not exists pgsodium with schema pgsodium` first. On the local twin pgsodium "
                + "is a registration-only stand-in whose functions are absent"
        }
        // The stand-in makes this one: then only the extension can be missing (a data
        // dump's `setval` on it, with no `create extension pgsodium` before it, was blamed
        // on the stand-in; round thirty-six).
        let installFirst = "if no statement before this one creates the pgsodium extension (newer Supabase projects do not "
            + "have it; older ones did), add `create extension if not exists pgsodium with schema pgsodium` to an earlier "
            + "migration, or leave this statement out"
        if Self.madeByTheStandIn.contains(name) {
            return "\(name) comes with the pgsodium extension (pgwarden's local stand-in makes it too): \(installFirst)"
        }
        return "\(name) comes with the pgsodium extension: \(installFirst). Where it is installed as pgwarden's local "
            + "stand-in (pg_extension.extversion 'pgwarden-stand-in'), its roles and schemas exist but its functions, key "
            + "table and views (\(name) among them) are absent, since a local copy could not really encrypt: \(elsewhere)"
    }

    /// What of pgsodium's own objects the stand-in makes (StandInPgsodium.sql).
    static let madeByTheStandIn: Set<String> = ["pgsodium.key_key_id_seq"]
}
