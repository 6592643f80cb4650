import Testing
import WardenPostgres
@testable import WardenKit

/// Hints for errors that come from this server lacking what Supabase has.
@Suite struct TwinGapHintTests {
    private func error(_ message: String, _ state: SQLState) -> PGError {
        PGError(kind: .server, message: message, sqlState: state, severity: "ERROR")
    }

    /// `select cron.schedule(...)` with no `create extension pg_cron` before it (a hosted
    /// project enabled it from the dashboard): "schema "cron" does not exist" named no
    /// cause; the hint names the extension and the statement to add.
    @Test func aScheduleWithoutItsExtensionIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("schema \"cron\" does not exist", "3F000")))
        #expect(hint.hasPrefix("schema cron is made by the pg_cron extension, which nothing before this statement creates"))
        #expect(hint.hasSuffix("add `create extension if not exists pg_cron with schema pg_catalog;` to an earlier migration"))
        #expect(TwinGapHint.hint(for: error("schema \"net\" does not exist", "3F000"))?.contains("pg_net") == true)
        #expect(TwinGapHint.hint(for: error("schema \"app\" does not exist", "3F000")) == nil)
    }

    /// A migration dumped by PostgreSQL 17's pg_dump starts with `SET transaction_timeout
    /// = 0;`, which this server calls unrecognized: a bare 42704 named no cause (an
    /// affiliate shop's dump migration).
    @Test func aSettingOfANewerPostgreSQLIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("unrecognized configuration parameter \"transaction_timeout\"", "42704")))
        #expect(hint.hasPrefix("transaction_timeout is a PostgreSQL 17 setting, which pg_dump 17 writes at the top of a dump"))
        #expect(TwinGapHint.hint(for: error("unrecognized configuration parameter \"no_such_thing\"", "42704")) == nil)
    }

    /// A dump of a project on PostgreSQL 17 grants MAINTAIN, which this server calls an
    /// unrecognized privilege type (42601): the migration stopped with no word of why
    /// (a coaching app, a CRM; round thirty-four). The message is PostgreSQL 15's.
    @Test func aPrivilegeOfANewerPostgreSQLIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("unrecognized privilege type \"maintain\"", "42601")))
        #expect(hint.hasPrefix("MAINTAIN is a PostgreSQL 17 privilege, which a dump of a project on 17 grants"))
        #expect(TwinGapHint.hint(for: error("unrecognized privilege type \"frobnicate\"", "42601")) == nil)
    }

    /// An event trigger where the twin cannot create it as Supabase does (a section
    /// without a transaction, a pgTAP file, plain PostgreSQL): PostgreSQL's "Must be
    /// superuser" alone sent users away from what Supabase allows. The message is 15's.
    @Test func anEventTriggerOutsideAMigrationsTransactionIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("permission denied to create event trigger \"auto_rls\"", "42501")))
        #expect(hint.hasPrefix("on Supabase, postgres may create event triggers"))
        #expect(hint.contains("a transaction:false section"))
        #expect(TwinGapHint.hint(for: error("permission denied to create extension \"x\"", "42501"))?.contains("event trigger") != true)
    }

    @Test func anIntervalScheduleOnAnOldPgCronIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("invalid schedule: 10 seconds", .invalidParameterValue)))
        #expect(hint.hasPrefix("this server's pg_cron is older than 1.5, which added interval schedules such as '10 seconds'"))
        #expect(TwinGapHint.hint(for: error("invalid schedule: 1 second", .invalidParameterValue)) != nil)
        // Not an interval schedule pg_cron 1.5 takes: no hint.
        #expect(TwinGapHint.hint(for: error("invalid schedule: 61 seconds", .invalidParameterValue)) == nil)
        #expect(TwinGapHint.hint(for: error("invalid schedule: * * *", .invalidParameterValue)) == nil)
        #expect(TwinGapHint.hint(for: error("invalid schedule: 10 seconds", .syntaxError)) == nil)
    }

    @Test func aMissingExtensionKeepsItsHint() throws {
        let missing = PGError(
            kind: .server, message: "extension \"vector\" is not available", sqlState: .featureNotSupported,
            detail: "Could not open extension control file \"/usr/share/postgresql/15/extension/vector.control\": No such file or directory.")
        #expect(TwinGapHint.hint(for: missing)?.contains("postgresql-15-pgvector") == true)
    }

    /// Objects of realtime the twin does not mirror, and pgsodium's absent functions,
    /// get a hint; a wrong call of a mirrored realtime function keeps the server's.
    @Test func realtimeAndPgsodiumGapsAreExplained() throws {
        let gap = try #require(TwinGapHint.hint(for: error("function realtime.apply_rls(jsonb) does not exist", .undefinedFunction)))
        #expect(gap.contains("realtime.apply_rls") && gap.contains("--database-url"))
        #expect(TwinGapHint.hint(for: error(#"relation "realtime.channels" does not exist"#, .undefinedTable))?
            .contains("Realtime server's own migrations") == true)
        #expect(TwinGapHint.hint(for: error(#"type "realtime.wal_rls" does not exist"#, .undefinedObject)) != nil)
        #expect(TwinGapHint.hint(for: error("function realtime.send(text) does not exist", .undefinedFunction)) == nil)
        #expect(TwinGapHint.hint(for: error(#"relation "realtime.messages" does not exist"#, .undefinedTable)) == nil)
        let sodium = try #require(TwinGapHint.hint(for: error(
            "function pgsodium.crypto_aead_det_encrypt(bytea, bytea, uuid, unknown) does not exist", .undefinedFunction)))
        #expect(sodium.contains("pgsodium.crypto_aead_det_encrypt") && sodium.contains("could not really encrypt"))
        #expect(TwinGapHint.hint(for: error(#"relation "pgsodium.key" does not exist"#, .undefinedTable)) != nil)
        #expect(TwinGapHint.hint(for: error(#"schema "pgsodium" does not exist"#, "3F000"))?
            .contains("create extension if not exists pgsodium with schema pgsodium") == true)
        // A data dump's `setval` on the key sequence, with no `create extension pgsodium`
        // before it: the stand-in makes that sequence, so the extension is what is missing
        // (the hint blamed the stand-in; round thirty-six).
        let sequence = try #require(TwinGapHint.hint(for: error(#"relation "pgsodium.key_key_id_seq" does not exist"#, .undefinedTable)))
        #expect(sequence.contains("add `create extension if not exists pgsodium with schema pgsodium` to an earlier migration"))
        #expect(!sequence.contains("could not really encrypt"))
        // Other schemas are the project's own business.
        #expect(TwinGapHint.hint(for: error("function public.send(text) does not exist", .undefinedFunction)) == nil)
        #expect(TwinGapHint.hint(for: error(#"schema "app" does not exist"#, "3F000")) == nil)
    }
}
