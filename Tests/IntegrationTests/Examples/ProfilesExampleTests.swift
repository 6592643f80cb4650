import Foundation
import Testing
import WardenKit
import TestSupport

/// examples/profiles: its plan holds, and the functions as the starters publish
/// them (default EXECUTE for PUBLIC) fail the function cells and the anon check.
@Suite struct ProfilesExampleTests {
    private let profiles = ExampleProject(name: "profiles")

    @Test func planHolds() throws {
        let connection = try profiles.database()
        let report = try profiles.prove(on: connection)
        #expect(report.failingCells.isEmpty, "\(report.failingCells)")
        #expect(report.results.filter { $0.subjectKind == .check }.count == 4)
        #expect(try connection.query("select count(*) from auth.users").scalar == "3")
        #expect(try connection.query(#"select count(*) from public."user""#).scalar == "3")
    }

    @Test func thePublishedFunctionsFailThePlan() throws {
        let connection = try profiles.database(upTo: "20261122000100")
        let published = try String(
            contentsOf: profiles.root.appendingPathComponent("tutorial/published_functions.sql"), encoding: .utf8)
        try connection.execute(unsafeScript: published)
        let report = try profiles.prove(on: connection)
        let deleteUser = "public.delete_current_user()"
        let handleNewUser = "public.handle_new_user()"
        let expected: Set<String> = [
            "anon · \(deleteUser) · execute", "service · \(deleteUser) · execute",
            "anon · \(handleNewUser) · execute", "jay · \(handleNewUser) · execute",
            "mina · \(handleNewUser) · execute", "service · \(handleNewUser) · execute",
            "anon · anon cannot call delete_current_user · check",
        ]
        #expect(report.failingCells == expected)
        #expect(report.failures.allSatisfy { $0.subjectKind == .check || $0.observed == "execute" })
    }
}
