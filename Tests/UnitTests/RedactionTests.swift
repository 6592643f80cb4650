import TestSupport
import WardenKit
import Foundation
import Testing

/// No form of connection string, valid or not, shows its password: what is shown is
/// rebuilt from libpq's parsed options, and strings libpq cannot parse show nothing
/// of their input.
@Suite struct RedactionTests {
    /// Each string holds the secret `S3cr3t` (spelled as the form needs).
    private static let parsable: [(conninfo: String, shown: String)] = [
        ("postgres://alice:S3cr3t@db.example.com:6543/shop?sslmode=require",
         "postgres://alice:****@db.example.com:6543/shop?sslmode=require"),
        ("postgresql://alice:S3cr3t?x@db/app", "postgresql://alice:****@db/app"),  // unencoded '?', as psql reads it
        ("postgresql://alice:S3cr3t%2Fx@db/app", "postgresql://alice:****@db/app"),  // encoded '/'
        ("postgresql://alice@db/app?pass%77ord=S3cr3t", "postgresql://alice:****@db/app"),  // encoded key
        ("postgresql://alice@db/app?password=S3cr3t&application_name=x",
         "postgresql://alice:****@db/app?application_name=x"),
        ("postgresql://:S3cr3t@db/app", "postgresql://:****@db/app"),
        ("postgresql:///app?host=/var/run/my%20sockets&password=S3cr3t",
         "postgresql://:****@/app?host=%2Fvar%2Frun%2Fmy%20sockets"),
        ("postgresql://alice:S3cr3t@[::1]:5432/app", "postgresql://alice:****@/app?host=%3A%3A1&port=5432"),
        ("host=db user=alice password=S3cr3t dbname=app", "dbname=app host=db password=**** user=alice"),
        ("host=db password='S3cr3t with spaces' dbname=app", "dbname=app host=db password=****"),
        ("host=db password=S3cr3t\\'x", "host=db password=****"),
        // Every option libpq marks secret (dispchar '*'), not only the password.
        ("postgresql://alice@db/app?sslpassword=S3cr3t&sslkey=/k.pem",
         "postgresql://alice@db/app?sslkey=%2Fk.pem&sslpassword=****"),
        ("host=db sslpassword='S3cr3t x' dbname=app", "dbname=app host=db sslpassword=****"),
        ("password = S3cr3t host = db", "host=db password=****"),
    ]

    @Test(arguments: parsable)
    func showsParsedOptionsWithThePasswordMasked(_ form: (conninfo: String, shown: String)) throws {
        let settings = try ConnectionSettings(form.conninfo)
        #expect(settings.redacted == form.shown)
        #expect(!settings.redacted.contains("S3cr3t"))
        #expect(!"\(settings)".contains("S3cr3t"))
        let password = try #require(settings.parameters["password"] ?? settings.parameters["sslpassword"])
        #expect(!settings.scrub("server said: \(password); see \(form.conninfo)").contains(password))
    }

    /// An unencoded '@' or '/' in a URL's password: libpq reads pieces of it as the
    /// host, port or database, so none of those are shown.
    @Test(arguments: [
        "postgres://alice:S3c@r3t@db/app", "postgres://alice:S3c/r3t@db/app", "postgres://alice:S3c/r3t@db",
    ])
    func showsNothingOfAMisreadURL(_ conninfo: String) throws {
        let settings = try ConnectionSettings(conninfo)
        for piece in ["S3c", "r3t"] {
            #expect(!settings.redacted.contains(piece), "\(settings.redacted)")
            #expect(!settings.scrub("could not translate host name \"r3t@db\" to address; \(conninfo)").contains(piece))
        }
        #expect(settings.redacted.hasPrefix("postgres://****"))
    }

    /// Such a URL is refused before libpq reads it: libpq would look a piece of the
    /// password up as a host name. An '@' only in the query (a socket folder) is not.
    @Test func aStrayAtSignIsRefusedBeforeConnecting() throws {
        for conninfo in ["postgres://alice:S3c@r3t@db/app", "postgres://alice:S3c/r3t@db/app", "postgres://alice:S3c/r3t@db"] {
            let settings = try ConnectionSettings(conninfo)
            #expect(settings.hasStrayAtSign, "\(conninfo)")
            do {
                _ = try Connection(settings)
                Issue.record("connected with \(conninfo)")
            } catch let error as PGError {
                #expect(error.kind == .invalidConnectionString)
                #expect(error.message.contains("write '@' as %40 and '/' as %2F"))
                for piece in ["S3c", "r3t"] { #expect(!error.message.contains(piece), "\(error.message)") }
            }
        }
        for conninfo in [
            "postgresql://alice:S3cr3t@db/app", "postgresql://u:p@db/app?host=%2Frun%2Fpg%4015",
            "postgresql://u:p@%2Frun%2Fpg%4015/db", "postgresql://alice@db/app?pass%77ord=S3cr3t",
        ] {
            #expect(!(try ConnectionSettings(conninfo)).hasStrayAtSign, "\(conninfo)")
        }
    }

    @Test(arguments: [
        "host=db password=S3cr3t nonsense", "host=db password='S3cr3t", "postgresql://alice:S3cr3t%zz@db/app",
        "postgresql://alice:S3cr3t@db/app?bogus=S3cr3t", "postgresql://alice:S3cr3t@db/app?S3cr3t=1",
        "S3cr3t", "host=db S3cr3t=x", "postgresql://alice:S3cr3t@db:port/app",
    ])
    func unparsableStringsShowNoPartOfTheirInput(_ conninfo: String) {
        do {
            _ = try ConnectionSettings(conninfo)
            // Some of these parse; then what is shown must still hide the secret.
            #expect(!((try? ConnectionSettings(conninfo))?.redacted.contains("S3cr3t") ?? false))
        } catch let error as PGError {
            #expect(error.kind == .invalidConnectionString)
            #expect(!"\(error)".contains("S3cr3t"), "\(error)")
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func keepsQuotedOptionNamesInParseErrors() {
        let error = #expect(throws: PGError.self) { try ConnectionSettings("postgresql://db/app?bogus_option=1") }
        #expect(error?.message.contains("\"…\"") == true)
        let port = #expect(throws: PGError.self) { try ConnectionSettings("host=db port") }
        #expect(port?.message.contains("S3cr3t") == false)
    }

    @Test func optionsWithSpacesAndQuotesStayOneValue() throws {
        let built = ConnectionSettings(options: ["host": "/tmp/my dir/it's", "dbname": "a b", "user": "u"])
        let reparsed = try ConnectionSettings(built.conninfo)
        #expect(reparsed.parameters == ["host": "/tmp/my dir/it's", "dbname": "a b", "user": "u"])
    }
}

@Suite struct RedactURLTests {
    @Test func redactsAnyStringItIsGiven() {
        #expect(Redaction.redactURL("postgres://u:S3cr3t?x@h/db") == "postgres://u:****@h/db")
        #expect(Redaction.redactURL("host=h password=S3cr3t oops") == "****")
    }
}
