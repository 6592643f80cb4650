import Foundation
import Testing
@testable import WardenKit

/// The note after a Supabase CLI project's pgTAP run: only when an assertion failed and
/// config.toml leaves `[api] auto_expose_new_tables` unset (set either way, the project
/// said what it wants; pgwarden's own layout has no such key).
@Suite struct DataAPIExposureNoteTests {
    static let failed = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
        TestCaseResult(number: 1, description: "anon has no grant", line: 3, status: .failed)], duration: .zero)
    static let passed = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
        TestCaseResult(number: 1, description: "anon has no grant", line: 3, status: .passed)], duration: .zero)

    static func layout(_ kind: ProjectLayout.Kind, exposes: Bool?) -> ProjectLayout {
        ProjectLayout(kind: kind, root: URL(fileURLWithPath: "."), migrationsDirectory: URL(fileURLWithPath: "m"),
                      seeds: .disabled, testsDirectory: URL(fileURLWithPath: "t"), planFile: URL(fileURLWithPath: "p"),
                      supabaseConfig: SupabaseConfig(autoExposeNewTables: exposes))
    }

    @Test func aFailureWithTheKeyUnsetIsNoted() throws {
        let note = try #require(DataAPIExposureNote.after([Self.passed, Self.failed], in: Self.layout(.supabase, exposes: nil)))
        #expect(note.hasPrefix("note: pgTAP failed, and supabase/config.toml leaves [api] auto_expose_new_tables unset"))
        #expect(note.hasSuffix("set auto_expose_new_tables = false"))
    }

    @Test func noFailureOrAKeySetOrPgwardensLayoutIsNotNoted() {
        #expect(DataAPIExposureNote.after([Self.passed], in: Self.layout(.supabase, exposes: nil)) == nil)
        #expect(DataAPIExposureNote.after([], in: Self.layout(.supabase, exposes: nil)) == nil)
        #expect(DataAPIExposureNote.after([Self.failed], in: Self.layout(.supabase, exposes: false)) == nil)
        #expect(DataAPIExposureNote.after([Self.failed], in: Self.layout(.supabase, exposes: true)) == nil)
        #expect(DataAPIExposureNote.after([Self.failed], in: Self.layout(.pgwarden, exposes: nil)) == nil)
    }

    /// A file that failed on its own (`set local role hook_worker`: 42501), or an assertion
    /// about something else, is not about the Data API's grants: no note (a hook's test).
    @Test func aFailureThatIsNotAboutPrivilegesIsNotNoted() {
        let setRole = TestSuiteResult(kind: "pgTAP", file: "hook.test.sql", cases: [
            TestCaseResult(number: nil, description: "SQL error at line 3: 42501: permission denied to set role \"hook_worker\"",
                           line: 3, status: .failed)], duration: .zero)
        let other = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
            TestCaseResult(number: 2, description: "the total is 3", line: 9, status: .failed, diagnostics: ["have: 2", "want: 3"])],
            duration: .zero)
        #expect(DataAPIExposureNote.after([setRole, other], in: Self.layout(.supabase, exposes: nil)) == nil)
        let privileges = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
            TestCaseResult(number: 4, description: "anon reads nothing", line: 12, status: .failed,
                           diagnostics: ["Extra privileges:", "    SELECT"])], duration: .zero)
        #expect(DataAPIExposureNote.after([privileges], in: Self.layout(.supabase, exposes: nil)) != nil)
    }

    /// A test that wants 42501 from a call (`throws_ok(..., '42501')`), or says a role
    /// cannot execute a function, fails on the grants too (a team board, an
    /// organisations app: "caught: P0001 ... wanted: 42501", and no note).
    @Test func aFailureWantingPermissionDeniedIsNoted() {
        let thrown = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
            TestCaseResult(number: 1, description: "anonymous users cannot run create_thing", line: 4, status: .failed,
                           diagnostics: ["caught: P0001: not signed in", "  wanted: 42501"])], duration: .zero)
        #expect(DataAPIExposureNote.after([thrown], in: Self.layout(.supabase, exposes: nil)) != nil)
        let execute = TestSuiteResult(kind: "pgTAP", file: "t.sql", cases: [
            TestCaseResult(number: 2, description: "Authenticated clients cannot execute purge()", line: 7, status: .failed)],
            duration: .zero)
        #expect(DataAPIExposureNote.after([execute], in: Self.layout(.supabase, exposes: nil)) != nil)
    }
}
