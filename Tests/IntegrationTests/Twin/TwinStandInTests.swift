import Foundation
import Testing
import WardenKit
import TestSupport

/// pgwarden's stand-ins for server extensions the local server lacks, on its own
/// ephemeral server only (docs/supabase-twin.md, "Stand-ins"): they work where they
/// can, and say they are local stand-ins where they cannot.
@Suite struct TwinStandInTests {
    private func project() throws -> Connection {
        try Connection(TestCluster.newTwinDatabase("standin").project)
    }

    /// pgjwt's documented API (michelp/pgjwt README): sign(payload, secret) gives the
    /// HS256 token RFC 7519 readers know (jwt.io's example, checked with Python's hmac);
    /// verify says whether it is valid.
    @Test func pgjwtSignsAndVerifiesHS256() throws {
        let project = try project()
        _ = try project.query("create extension pgjwt with schema extensions")
        let token = try project.query(
            #"select extensions.sign('{"sub":"1234567890","name":"John Doe","iat":1516239022}'::json, 'your-256-bit-secret')"#
        ).scalar
        #expect(token == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
            + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
        #expect(try project.query("select valid::text from extensions.verify(\(token), 'your-256-bit-secret')").scalar == "true")
        #expect(try project.query("select valid::text from extensions.verify(\(token), 'wrong')").scalar == "false")
        #expect(try project.query("select payload->>'name' from extensions.verify(\(token), 'your-256-bit-secret')").scalar == "John Doe")
        let expired = try project.query(#"select extensions.sign('{"exp":1000}'::json, 'k', 'HS512')"#).scalar
        #expect(try project.query("select valid::text from extensions.verify(\(expired), 'k', 'HS512')").scalar == "false")
        let error = try #require(throws: PGError.self) { try project.query("select extensions.sign('{}'::json, 'k', 'RS256')") }
        #expect(error.message.contains("local stand-in"))
    }

    /// pg_jsonschema's documented API (supabase/pg_jsonschema README, Supabase's guide):
    /// the guide's check constraint takes its valid payload and refuses its invalid one;
    /// the common keywords are checked; one the stand-in does not check raises an error
    /// saying so, never a made-up answer.
    @Test func pgJsonschemaValidatesTheCommonKeywords() throws {
        let project = try project()
        _ = try project.query("create extension pg_jsonschema with schema extensions")
        try project.execute(unsafeScript: """
            create table public.customer (id serial primary key, metadata json,
              check (extensions.json_matches_schema('{"type": "object", "properties": {"tags": {"type": "array",
                     "items": {"type": "string", "maxLength": 16}}}}', metadata)));
            insert into public.customer (metadata) values ('{"tags": ["vip", "darkmode-ui"]}');
            """)
        let refused = try #require(throws: PGError.self) {
            try project.execute(#"insert into public.customer (metadata) values ('{"tags": [1, 3]}')"#)
        }
        #expect(refused.sqlState == .checkViolation, "\(refused)")
        func matches(_ schema: String, _ instance: String) throws -> Bool {
            try project.query("select extensions.jsonb_matches_schema(\(schema)::json, \(instance)::jsonb)::text").scalar == "true"
        }
        let cases: [(String, String, Bool)] = [
            (#"{"type": "integer"}"#, "3", true), (#"{"type": "integer"}"#, "3.5", false),
            (#"{"type": ["string", "null"]}"#, "null", true), (#"{"enum": ["a", "b"]}"#, #""c""#, false),
            (#"{"const": {"a": 1}}"#, #"{"a": 1}"#, true),
            (#"{"required": ["a"], "additionalProperties": false, "properties": {"a": {}}}"#, #"{"a": 1, "b": 2}"#, false),
            (#"{"patternProperties": {"^x_": {"type": "number"}}, "additionalProperties": false}"#, #"{"x_1": 2}"#, true),
            (#"{"minItems": 2, "uniqueItems": true}"#, "[1, 1]", false),
            (#"{"prefixItems": [{"type": "string"}], "items": {"type": "number"}}"#, #"["a", 1, 2]"#, true),
            (#"{"contains": {"const": 3}}"#, "[1, 2]", false), (#"{"pattern": "^[a-z]+$", "minLength": 2}"#, #""ab""#, true),
            (#"{"minimum": 1, "exclusiveMaximum": 10, "multipleOf": 0.5}"#, "9.5", true),
            (#"{"exclusiveMinimum": 1}"#, "1", false), (#"{"oneOf": [{"type": "number"}, {"minimum": 0}]}"#, "5", false),
            (#"{"anyOf": [{"type": "string"}, {"type": "number"}]}"#, "true", false), (#"{"not": {"type": "null"}}"#, "1", true),
            (#"{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]}}"#, #"{"kind": "a"}"#, false),
            (##"{"$defs": {"id": {"type": "string", "format": "uuid"}}, "properties": {"id": {"$ref": "#/$defs/id"}}}"##, #"{"id": 7}"#, false),
            (#"{"dependentRequired": {"a": ["b"]}}"#, #"{"a": 1}"#, false), ("false", "1", false), ("true", "1", true),
        ]
        for (schema, instance, expected) in cases {
            #expect(try matches(schema, instance) == expected, "\(schema) against \(instance)")
        }
        let errors = try project.query(
            #"select array_to_string(extensions.jsonschema_validation_errors('{"properties": {"n": {"maximum": 2}}, "required": ["m"]}', '{"n": 3}'), ' | ')"#
        ).scalar
        #expect(errors == #": "m" is a required property | /n: 3 is greater than 2"#, "\(String(describing: errors))")
        #expect(try project.query(#"select extensions.jsonschema_is_valid('{"type": "object"}')::text"#).scalar == "true")
        #expect(try project.query(#"select extensions.jsonschema_is_valid('{"type": "thing"}')::text"#).scalar == "false")
        let unchecked = try #require(throws: PGError.self) {
            try project.query(#"select extensions.jsonb_matches_schema('{"unevaluatedProperties": false}', '{}')"#)
        }
        #expect(unchecked.message.contains("local stand-in") && unchecked.message.contains("unevaluatedProperties"), "\(unchecked)")
        #expect(try project.query("select extversion from pg_extension where extname = 'pg_jsonschema'").scalar == "pgwarden-stand-in")
    }

    /// pg_stat_monitor (Supabase's image ships it; a hosted project's schema dump creates
    /// it): a registration whose reset says it is a local stand-in.
    @Test func pgStatMonitorIsARegistration() throws {
        let project = try project()
        _ = try project.query(#"create extension if not exists "pg_stat_monitor" with schema "extensions""#)
        #expect(try project.query("select extversion from pg_extension where extname = 'pg_stat_monitor'").scalar == "pgwarden-stand-in")
        let error = try #require(throws: PGError.self) { try project.query("select extensions.pg_stat_monitor_reset()") }
        #expect(error.message.contains("local stand-in") && error.sqlState == .featureNotSupported, "\(error)")
    }

    /// http is synchronous: the stand-in records the request, and answers "unknown"
    /// (a response with every field null, and a warning) rather than inventing one.
    @Test func httpRecordsTheRequestAndAnswersUnknown() throws {
        let warnings = WarningBox()
        let project = try Connection(TestCluster.newTwinDatabase("standin").project) { warnings.add($0.message) }
        _ = try project.query("create extension http with schema extensions")
        let response = try project.query(
            "select (r).status is null and (r).content is null from (select extensions.http_post('https://example.test/y', '{\"a\":1}', 'application/json') as r) t"
        ).scalar
        #expect(response == "t" || response == "true")
        #expect(warnings.all.contains { $0.contains("local stand-in") && $0.contains("https://example.test/y") })
        #expect(try project.query("select method || ' ' || url || ' ' || body || ' ' || (headers->>'Content-Type') from extensions.http_request_log")
            .scalar == #"POST https://example.test/y {"a":1} application/json"#)
        // A request without a URI (a URL read from an empty Vault secret) is refused as
        // pgsql-http refuses it, not by the log's NOT NULL (23502 named the stand-in's table).
        let noURI = try #require(throws: PGError.self) { try project.query("select extensions.http_delete(null)") }
        #expect(noURI.sqlState?.rawValue == "XX000" && noURI.message == "http_request.uri is NULL", "\(noURI)")
    }

    /// pgmq's documented API (pgmq README; Supabase Queues): send, read with a
    /// visibility timeout, archive, pop, delete, drop.
    @Test func pgmqQueuesWork() throws {
        let project = try project()
        _ = try project.query("create extension pgmq")
        _ = try project.query("select pgmq.create('jobs')")
        let first = try #require(try project.query(#"select pgmq.send('jobs', '{"n":1}')::text"#).scalar)
        _ = try project.query(#"select pgmq.send_batch('jobs', array['{"n":2}', '{"n":3}']::jsonb[])"#)
        #expect(try project.query("select string_agg(message->>'n', ',' order by msg_id) from pgmq.read('jobs', 30, 2)").scalar == "1,2")
        #expect(try project.query("select string_agg(message->>'n', ',') from pgmq.read('jobs', 30, 5)").scalar == "3")
        #expect(try project.query("select pgmq.archive('jobs', \(first)::bigint)::text").scalar == "true")
        #expect(try project.query("select count(*)::text from pgmq.a_jobs").scalar == "1")
        #expect(try project.query("select string_agg(queue_name, ',') from pgmq.list_queues()").scalar == "jobs")
        #expect(try project.query("select pgmq.purge_queue('jobs')::text").scalar == "2")
        #expect(throws: PGError.self) { try project.query("select pgmq.create('bad;name')") }
        let partitioned = try #require(throws: PGError.self) { try project.query("select pgmq.create_partitioned('big')") }
        #expect(partitioned.message.contains("local stand-in"))
        _ = try project.query("select pgmq.create_unlogged('fast')")
        #expect(try project.query("select relpersistence::text from pg_class where oid = 'pgmq.q_fast'::regclass").scalar == "u")
        #expect(try project.query("select pgmq.drop_queue('jobs')::text").scalar == "true")
        #expect(try project.query("select to_regclass('pgmq.q_jobs') is null").scalar == "t")
    }

    /// pgmq's control file fixes its schema (`schema = 'pgmq'`, pgmq v1.4.4
    /// pgmq-extension/pgmq.control): a schema dump's `create schema if not exists pgmq;
    /// create extension if not exists pgmq with schema pgmq` and a bare `create
    /// extension` under an empty search_path (as `supabase db dump` and migra write them)
    /// both install it in pgmq.
    @Test func pgmqInstallsInItsSchemaInEitherForm() throws {
        let dumped = try project()
        try dumped.execute("create schema if not exists pgmq; create extension if not exists pgmq with schema pgmq;")
        #expect(try dumped.query("select extnamespace::regnamespace::text from pg_extension where extname = 'pgmq'").scalar == "pgmq")
        _ = try dumped.query("select pgmq.create('dumped')")

        let bare = try project()
        try bare.execute(#"select set_config('search_path', '', false); create extension if not exists "pgmq";"#)
        #expect(try bare.query("select extnamespace::regnamespace::text from pg_extension where extname = 'pgmq'").scalar == "pgmq")
        _ = try bare.query("select pgmq.create('bare')")
        // As upstream: no other schema.
        #expect(throws: PGError.self) { try self.project().query("create extension pgmq with schema public") }
    }

    /// pgmq v1.4.4's array forms: `delete(queue, bigint[])` and `archive(queue, bigint[])`
    /// return the ids they removed (ids not in the queue are skipped).
    @Test func pgmqDeletesAndArchivesSeveralIds() throws {
        let project = try project()
        _ = try project.query("create extension pgmq")
        _ = try project.query("select pgmq.create('batch')")
        let ids = try project.query(#"select pgmq.send_batch('batch', array['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']::jsonb[])::text"#)
            .rows.compactMap { $0.first ?? nil }
        #expect(ids.count == 4)
        #expect(try project.query("select string_agg(id::text, ',' order by id) from pgmq.delete('batch', array[\(ids[0])::bigint, \(ids[1])::bigint, 999999]) id")
            .scalar == "\(ids[0]),\(ids[1])")
        #expect(try project.query("select string_agg(id::text, ',' order by id) from pgmq.archive('batch', array[\(ids[2])::bigint, \(ids[3])::bigint]) id")
            .scalar == "\(ids[2]),\(ids[3])")
        #expect(try project.query("select format('%s %s', (select count(*) from pgmq.q_batch), (select string_agg(message->>'n', ',' order by msg_id) from pgmq.a_batch))")
            .scalar == "0 3,4")
    }

    /// Schema dumps of hosted projects start with `create extension if not exists
    /// supabase_vault with schema vault` and `pg_graphql with schema graphql`.
    @Test func vaultAndGraphqlRegistrationsLetSchemaDumpsApply() throws {
        let project = try project()
        // Installed already, as on a new project: a migration's bare `if not exists`
        // (no schema) does nothing, where it had put the registration in public.
        _ = try project.query("create extension if not exists supabase_vault")
        #expect(try project.query("select extnamespace::regnamespace::text from pg_extension where extname = 'supabase_vault'")
            .scalar == "vault")
        try project.execute(
            """
            create extension if not exists supabase_vault with schema vault;
            create extension if not exists pg_graphql with schema graphql;
            """)
        #expect(try project.query("select vault.create_secret('x') is not null").scalar == "t")
        let error = try #require(throws: PGError.self) { try project.query("select graphql.resolve('{ a }')") }
        #expect(error.message.contains("local stand-in"))
    }

    /// Dumps of projects whose image installed pgsodium start with `create extension if
    /// not exists "pgsodium" with schema "pgsodium"` and `comment on extension pgsodium`
    /// (PG migrations/schema-15.sql at 7db7e1a): both apply as postgres, twice too. The
    /// registration makes pgsodium's roles (michelp/pgsodium extension/pgsodium--1.1.1--1.2.0.sql)
    /// with Supabase's grants (PG migrations/20221207154255_create_pgsodium_and_vault.sql,
    /// 20230529180330_alter_api_roles_for_inherit.sql); its functions are absent, and the
    /// error's hint says why, rather than a local "encryption" returning plaintext.
    @Test func pgsodiumRegistrationLetsSchemaDumpsApply() throws {
        let project = try project()
        for _ in 1...2 {
            try project.execute(
                """
                create extension if not exists "pgsodium" with schema "pgsodium";
                comment on extension pgsodium is 'Pgsodium is a modern cryptography library for Postgres.';
                """)
        }
        #expect(try project.query("""
            select format('%s@%s %s, schema owner %s', extname, extnamespace::regnamespace, extversion,
                          (select nspowner::regrole from pg_namespace where nspname = 'pgsodium'))
            from pg_extension where extname = 'pgsodium'
            """).scalar == "pgsodium@pgsodium pgwarden-stand-in, schema owner supabase_admin")
        #expect(try project.query("""
            select string_agg(format('%s login=%s inherit=%s', rolname, rolcanlogin::text, rolinherit::text), ',' order by rolname)
            from pg_roles where rolname like 'pgsodium%'
            """).scalar == "pgsodium_keyholder login=false inherit=true,pgsodium_keyiduser login=false inherit=true,"
            + "pgsodium_keymaker login=false inherit=true")
        #expect(try project.query("""
            select string_agg(format('%s>%s%s', roleid::regrole, member::regrole, case when admin_option then '+admin' else '' end),
                              ',' order by roleid::regrole::text, member::regrole::text)
            from pg_auth_members where roleid::regrole::text like 'pgsodium%'
            """).scalar == "pgsodium_keyholder>pgsodium_keymaker,pgsodium_keyholder>postgres+admin,pgsodium_keyholder>service_role,"
            + "pgsodium_keyiduser>pgsodium_keyholder,pgsodium_keyiduser>pgsodium_keymaker,pgsodium_keyiduser>postgres+admin,"
            + "pgsodium_keymaker>postgres+admin")
        // postgres may hand the roles on (admin option), as a role dump does.
        try project.execute("grant pgsodium_keyiduser to authenticated; revoke pgsodium_keyiduser from authenticated;")
        #expect(try project.query("select has_schema_privilege('anon', 'pgsodium', 'usage')::text").scalar == "true")
        // A data dump sets the key table's sequence (`supabase db dump --data-only`).
        #expect(try project.query(#"SELECT pg_catalog.setval('"pgsodium"."key_key_id_seq"', 1, false)"#).scalar == "1")
        let error = try #require(throws: PGError.self) {
            try project.query("select pgsodium.crypto_aead_det_encrypt('x'::bytea, ''::bytea, gen_random_uuid(), null)")
        }
        #expect(error.sqlState == .undefinedFunction)
        #expect(TwinGapHint.hint(for: error)?.contains("could not really encrypt") == true)
        #expect(StandInExtensions.reportLine(["pgsodium"])?.contains("(pgsodium encryption) is not provable locally") == true)
    }

    /// A project granting postgres every function of schema net (a migration written
    /// against Supabase, where that gives WARNINGs) applies: the stand-in's own helper
    /// had no privilege for postgres, and the grant stopped with 42501.
    @Test func grantingPostgresEveryPgNetFunctionApplies() throws {
        let project = try project()
        try project.execute(unsafeScript: "grant execute on all functions in schema net to postgres")
        #expect(try project.query("select net.http_get('https://example.com/hook') > 0").scalar == "t")
    }

    /// `create extension index_advisor` (a schema dump of a project that enabled it in
    /// the dashboard) applies, and its call says it suggests nothing here: the dump's
    /// migration stopped with 0A000 (a credit app).
    @Test func indexAdvisorIsAStandInThatSuggestsNothing() throws {
        let project = try project()
        try project.execute(unsafeScript: "create extension if not exists index_advisor with schema extensions")
        let errors = try project.query("select array_to_string(errors, ' ') from extensions.index_advisor('select 1')").scalar
        #expect(errors == "index_advisor is a local stand-in on the pgwarden twin: no indexes are suggested locally")
        #expect(StandInExtensions.reportLine(["index_advisor"])?.contains("(index suggestions) is not provable locally") == true)
    }

    /// The stand-ins say what they are in pg_extension (their version).
    @Test func standInsAreMarkedInPgExtension() throws {
        let project = try project()
        #expect(try project.query("select extversion from pg_extension where extname = 'pg_net'").scalar == "pgwarden-stand-in")
        _ = try project.query("create extension pgjwt with schema extensions")
        #expect(try StandInExtensions.installed(project) == ["pg_net", "pgjwt", "supabase_vault"])
        #expect(StandInExtensions.reportLine(["pg_net", "pgjwt"]) == "stand-ins: pg_net, pgjwt are pgwarden's local stand-ins, "
            + "not the real extensions: what reaches them (HTTP calls) is not provable locally (docs/supabase-twin.md)")
        // Each names only what it stands for (HTTP once for pg_net and http); pgjwt and pgmq work locally.
        #expect(StandInExtensions.reportLine(["http", "pg_graphql", "pg_net", "supabase_vault"])?
            .contains("(HTTP calls, GraphQL, Vault encryption) is not provable locally") == true)
        #expect(StandInExtensions.reportLine(["pgjwt", "pgmq"])
            == "stand-ins: pgjwt, pgmq are pgwarden's local stand-ins, not the real extensions (docs/supabase-twin.md)")
        #expect(StandInExtensions.reportLine([]) == nil)
    }

    /// An extension with no stand-in: the migration fails naming the extension, the
    /// file, and what to do; nothing is changed.
    @Test func anUnavailableExtensionSaysWhatToDo() throws {
        let folder = try MigrationFolder(["1_vectors.sql": "create table public.docs (id int);\ncreate extension vector with schema extensions;\n"])
        let project = try TestCluster.newTwinDatabase("novector").project
        let failure = try #require(throws: MigrationSQLFailure.self) {
            try Migrator.open(folder: folder.path, settings: project).up()
        }
        let text = failure.description
        #expect(text.contains("1_vectors.sql:2:"))
        #expect(text.contains("not available on the local twin"))
        #expect(text.contains("--database-url") && text.contains("PGWARDEN_PG_BINDIR"))
        #expect(try Connection(project).query("select count(*)::text from pg_tables where tablename = 'docs'").scalar == "0")
    }
}

/// Collects the server's notices (thread-safe).
final class WarningBox: @unchecked Sendable {
    private var messages: [String] = []
    private let lock = NSLock()
    func add(_ message: String) { lock.lock(); messages.append(message); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return messages }
}
