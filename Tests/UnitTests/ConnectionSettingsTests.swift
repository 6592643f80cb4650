import TestSupport
import WardenKit
import Testing

@Suite struct ConnectionSettingsTests {
    @Test func parsesAURL() throws {
        let settings = try ConnectionSettings("postgres://alice:pa%40ss@db.example.com:6543/shop?sslmode=require")
        #expect(settings.isURL)
        #expect(settings.parameters["user"] == "alice")
        #expect(settings.parameters["password"] == "pa@ss")
        #expect(settings.parameters["host"] == "db.example.com")
        #expect(settings.parameters["port"] == "6543")
        #expect(settings.parameters["dbname"] == "shop")
        #expect(settings.parameters["sslmode"] == "require")
    }

    @Test func parsesUnixSocketHostsInURLs() throws {
        let query = try ConnectionSettings("postgresql:///shop?host=/var/run/postgresql&port=5433")
        #expect(query.parameters["host"] == "/var/run/postgresql")
        #expect(query.parameters["dbname"] == "shop")
        let encoded = try ConnectionSettings("postgresql://bob@%2Ftmp%2Fsock/app")
        #expect(encoded.parameters["host"] == "/tmp/sock")
        #expect(encoded.parameters["user"] == "bob")
    }

    @Test func parsesKeyValueStrings() throws {
        let settings = try ConnectionSettings("host=localhost port=5433 dbname='my db' user=carol password=x\\'y")
        #expect(settings.parameters["dbname"] == "my db")
        #expect(settings.parameters["password"] == "x'y")
        #expect(!settings.isURL)
    }

    @Test func emptyMeansTheEnvironment() throws {
        let settings = ConnectionSettings.environment
        #expect(settings.parameters.isEmpty)
        #expect(settings.redacted == "(libpq environment)")
    }

    @Test func rejectsMalformedStringsWithoutEchoingThePassword() throws {
        let error = try #require(throws: PGError.self) {
            try ConnectionSettings("host=x password=hunter2 nonsense")
        }
        #expect(error.kind == .invalidConnectionString)
        #expect(!"\(error)".contains("hunter2"))
        #expect(throws: PGError.self) { try ConnectionSettings("postgres://h/db?bogus_option=1") }
    }

    @Test func redactsURLPasswords() throws {
        let settings = try ConnectionSettings("postgresql://alice:topsecret@db:5432/app?password=other&sslmode=disable")
        // Rebuilt from what libpq parsed: one password (the query's wins), masked.
        #expect(settings.redacted == "postgresql://alice:****@db:5432/app?sslmode=disable")
        #expect("\(settings)" == settings.redacted)
    }

    @Test func redactsKeyValuePasswords() throws {
        let settings = try ConnectionSettings("host=db user=alice password=topsecret dbname=app")
        #expect(settings.redacted == "dbname=app host=db password=**** user=alice")
    }

    @Test func scrubsThePasswordFromMessages() throws {
        let settings = try ConnectionSettings("postgresql://alice:topsecret@db/app")
        let scrubbed = settings.scrub("FATAL: role \"topsecret\" does not exist; see postgres://x:y@h/z")
        #expect(!scrubbed.contains("topsecret"))
        #expect(scrubbed.contains("postgres://x:****@h/z"))
    }

    @Test func switchesDatabase() throws {
        let settings = try ConnectionSettings("host=/tmp port=5432 user=postgres dbname=postgres")
        #expect(settings.withDatabase("other db").parameters["dbname"] == "other db")
    }
}

@Suite struct PostgresErrorTests {
    @Test func describesServerErrorsOnReadableLines() {
        var error = PGError(
            kind: .server, message: "permission denied for table listing", sqlState: .insufficientPrivilege,
            severity: "ERROR", detail: "d", hint: "h")
        error.position = 3
        #expect(error.description == "ERROR: permission denied for table listing (SQLSTATE 42501)\nDETAIL: d\nHINT: h")
    }

    @Test func matchesSQLStatesByName() {
        let error = PGError(kind: .server, message: "m", sqlState: "42501")
        #expect(error.sqlState == .insufficientPrivilege)
        #expect(error.sqlState?.errorClass == "42")
    }
}
