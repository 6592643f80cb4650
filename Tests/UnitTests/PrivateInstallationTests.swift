import Foundation
import Testing
@testable import WardenKit

/// The private installation tree repeats the server's layout under its own root, so
/// PostgreSQL's relative-path rule finds `share` and `lib` in it.
@Suite struct PrivateInstallationTests {
    @Test func theCommonFolderOfDebiansLayoutIsUsr() {
        #expect(PrivateInstallation.commonFolderPrefix(
            ["/usr/lib/postgresql/15/bin", "/usr/share/postgresql/15", "/usr/lib/postgresql/15/lib"]) == "/usr/")
    }

    @Test func aSelfContainedInstallationKeepsItsRoot() {
        #expect(PrivateInstallation.commonFolderPrefix(
            ["/opt/pg/bin", "/opt/pg/share", "/opt/pg/lib"]) == "/opt/pg/")
        #expect(PrivateInstallation.commonFolderPrefix(["/opt/pgsql/bin", "/opt/pg/share"]) == "/opt/")
    }

    @Test func stopsAtAFolderBoundary() {
        #expect(PrivateInstallation.commonFolderPrefix(["/usr/lib/x", "/usr/libexec/y"]) == "/usr/")
    }

    @Test func everyStandInClaimsTheStandInVersionAndHasAScript() {
        for standIn in StandInExtensions.all {
            #expect(!standIn.script.isEmpty, "\(standIn.name)")
            #expect(!standIn.comment.contains("\n"), "\(standIn.name)")
        }
        #expect(StandInExtensions.names == ["pg_net", "http", "pgjwt", "pgmq", "supabase_vault", "pg_graphql", "pgsodium", "pg_jsonschema", "pg_stat_monitor", "index_advisor"])
    }

    /// Off pgwarden's server, a refused privileged extension gets a hint saying why.
    @Test func aRefusedPrivilegedExtensionIsExplained() {
        let refused = PGError(kind: .server, message: #"permission denied to create extension "moddatetime""#, sqlState: "42501")
        #expect(RefusedPrivilegedExtension(refused)?.hint.contains("supautils") == true)
        let unsafe = PGError(kind: .server, message: #"permission denied to create extension "pageinspect""#, sqlState: "42501")
        #expect(RefusedPrivilegedExtension(unsafe) == nil)
    }

    /// A privileged extension's control file becomes trusted and run as the superuser:
    /// its own `trusted` and `superuser` lines (indented or not) go, everything else
    /// stays in order, and the two lines pgwarden needs end it.
    @Test func aControlFileIsMadeTrustedLineByLine() {
        let pgTAP = "# pgTAP\ncomment = 'Unit testing for PostgreSQL'\ndefault_version = '1.2.0'\n  superuser = false\n"
            + "trusted = false\nrelocatable = true\n\n\n"
        let made = String(decoding: PrivateInstallation.trustedControl(Array(pgTAP.utf8)), as: UTF8.self)
        #expect(made == "# pgTAP\ncomment = 'Unit testing for PostgreSQL'\ndefault_version = '1.2.0'\nrelocatable = true\n"
            + "# pgwarden: trusted, as supautils lets postgres create it on Supabase\ntrusted = true\nsuperuser = true\n")
    }
}
