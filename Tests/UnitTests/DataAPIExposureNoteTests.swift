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
}
