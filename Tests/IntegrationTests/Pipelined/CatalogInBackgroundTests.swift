import Foundation
import Testing
import WardenKit
import TestSupport

/// The run reads the committed catalog on a second session while its own session
/// works (`CatalogReadsInBackground`, issue 18), and what it reports does not depend
/// on whether it could.
@Suite struct CatalogInBackgroundTests {
    private var electricRidePlan: String {
        get throws { try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8) }
    }

    /// A fresh Electric Ride database (the twin, migrations, seeds): the project
    /// owner's connection and the superuser's settings.
    private func electricRide() throws -> (connection: Connection, admin: ConnectionSettings) {
        let (admin, project) = try TestCluster.newTwinDatabase("catalog")
        _ = try Migrator.open(folder: ElectricRide.migrations.path, settings: project).up()
        let connection = try Connection(project)
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        return (connection, admin)
    }

    private func run(_ text: String, on connection: Connection, inBackground: Bool = true) throws -> AccessPlanReport {
        var runner = AccessPlanRunner(connection: connection, plan: try AccessPlanParser(file: "plan.yml").parse(text))
        runner.readsCatalogInBackground = inBackground
        return try runner.run()
    }

    /// The plan's report lines and the round trips it took, read on the run's session alone.
    private func aloneOnOneSession(_ connection: Connection) throws -> (lines: [String], trips: Int) {
        let before = connection.roundTrips
        let report = lines(try run(electricRidePlan, on: connection, inBackground: false))
        return (report, connection.roundTrips - before)
    }

    /// The other sessions connected to the database (user, state, query), once those
    /// closed have ended: a closed session's backend ends a moment after its client
    /// closed it, so this waits up to a second for the list to empty.
    private func otherSessions(_ connection: Connection) throws -> [[String?]] {
        func list() throws -> [[String?]] {
            try connection.query(
                "select usename, state, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
            ).rows
        }
        var left = try list()
        for _ in 0..<40 where !left.isEmpty {
            usleep(25_000)
            left = try list()
        }
        return left
    }

    /// Each result as one line, for comparing two runs.
    private func lines(_ report: AccessPlanReport) -> [String] {
        report.results.map { "\($0.subject) \($0.persona ?? "-") \($0.probe) \($0.observed) \($0.passed)" }
            + report.undoableSideEffects + report.standIns + report.sessionUserReaders
    }

    @Test func theCatalogLeavesTheRunsSessionAndTheReportStaysTheSame() throws {
        let (connection, _) = try electricRide()
        let plan = try electricRidePlan
        let before = connection.roundTrips
        let alone = try run(plan, on: connection, inBackground: false)
        let aloneTrips = connection.roundTrips - before
        let both = try run(plan, on: connection)
        let bothTrips = connection.roundTrips - before - aloneTrips
        #expect(alone.failures.isEmpty && both.failures.isEmpty)
        #expect(lines(both) == lines(alone))
        // The exposed catalog with the schema and role questions, the sign-in's catalog
        // and the notes: three round trips.
        #expect(bothTrips <= aloneTrips - 3, "\(bothTrips) round trips with the second session, \(aloneTrips) without")
        // The second session is closed when the run returns.
        #expect(try otherSessions(connection).isEmpty)
    }

    /// The command opens the second session together with its first
    /// (`prove(on:limits:catalogSession:)`): the run reads on that one (no other is
    /// opened: the round trips are as few as with its own) and closes it.
    @Test func aSecondSessionOpenedEarlyIsTheOneTheRunReadsOnAndCloses() throws {
        let (connection, _) = try electricRide()
        let plan = try AccessPlanParser(file: "plan.yml").parse(try electricRidePlan)
        let (expected, aloneTrips) = try aloneOnOneSession(connection)
        let early = ConnectionInBackground(connection.settings)
        let session = try early.connection()
        let pid = try #require(try session.query("select pg_backend_pid()::text").scalar)
        let before = connection.roundTrips
        let report = try plan.prove(on: connection, limits: .init(), catalogSession: early)
        let trips = connection.roundTrips - before
        #expect(lines(report) == expected)
        #expect(!session.isOpen, "the run left the early session open")
        #expect(try otherSessions(connection).isEmpty, "backend \(pid) or another is still connected")
        // Read on the early session, not on the run's: the three round trips of the catalog's reads are not the run's.
        #expect(trips <= aloneTrips - 3, "\(trips) round trips with the early session, \(aloneTrips) without")
    }

    /// `pgwarden test` starts the catalog's reads as soon as the plan is read, before
    /// the run's own session is open (`startCatalogReads(on:limits:)`): the run uses them
    /// (its session makes none of those round trips), reports the same, and closes the
    /// second session.
    @Test func readsStartedBeforeTheRunAreTheOnesItUses() throws {
        let (connection, _) = try electricRide()
        let plan = try AccessPlanParser(file: "plan.yml").parse(try electricRidePlan)
        let (expected, aloneTrips) = try aloneOnOneSession(connection)
        let session = ConnectionInBackground(connection.settings)
        let reads = plan.startCatalogReads(on: session, limits: .init())
        let before = connection.roundTrips
        let report = try plan.prove(on: connection, limits: .init(), catalogReads: reads)
        let trips = connection.roundTrips - before
        #expect(lines(report) == expected)
        #expect(trips <= aloneTrips - 3, "\(trips) round trips with reads started early, \(aloneTrips) without")
        #expect(!(try session.connection().isOpen), "the run left the reads' session open")
        #expect(try otherSessions(connection).isEmpty, "the reads' session or another is still connected")
    }

    /// Reads started for another plan (here one that names a relation the database does
    /// not have, so using its reads would fail the run), or with other limits, are not
    /// the run's: it starts its own, reports what it would have, and the unused reads'
    /// session is closed too.
    @Test func readsStartedForAnotherPlanOrOtherLimitsAreNotUsed() throws {
        let (connection, _) = try electricRide()
        let text = try electricRidePlan
        let plan = try AccessPlanParser(file: "plan.yml").parse(text)
        let expected = lines(try run(text, on: connection, inBackground: false))
        let other = try AccessPlanParser(file: "plan.yml").parse(text.replacingOccurrences(
            of: "\nrelations:\n", with: "\nrelations:\n  nowhere: { sample: { id: \"1\" }, access: { anon: none } }\n"))
        var limits = AccessPlanLimits()
        limits.lockTimeout = .seconds(3)
        for (readsFor, limits) in [(other, AccessPlanLimits()), (plan, limits)] {
            let session = ConnectionInBackground(connection.settings)
            let reads = readsFor.startCatalogReads(on: session, limits: limits)
            let report = try plan.prove(on: connection, limits: .init(), catalogReads: reads)
            #expect(lines(report) == expected)
            #expect(!(try session.connection().isOpen), "the unused reads' session is still open")
        }
        #expect(try otherSessions(connection).isEmpty)
    }

    /// The schema and role questions now ride on the second session's one round trip:
    /// a persona whose role the connecting user may not switch to, and a schema the
    /// database lacks, are still the plan's mistakes with their lines, and nothing is left.
    @Test func theSecondSessionsRoleAndSchemaAnswersAreThePlansMistakes() throws {
        let (connection, admin) = try electricRide()
        let role = "plan_outsider_\(UUID().uuidString.prefix(8).lowercased())"
        try Connection(admin).execute(unsafeStatement: "create role \(role) nologin")
        defer { _ = try? Connection(admin).execute(unsafeStatement: "drop role \(role)") }
        let outsider = try electricRidePlan.replacingOccurrences(
            of: "  service:\n    role: service_role", with: "  service:\n    role: service_role\n  outsider: { role: \(role) }")
        let error = try #require(throws: AccessPlanError.self) { try run(outsider, on: connection) }
        #expect(error.message.contains("persona 'outsider' has role '\(role)', which the connecting user may not switch to"), "\(error.message)")
        #expect(error.line == (try #require(outsider.components(separatedBy: "\n").firstIndex(of: "  outsider: { role: \(role) }"))) + 1)
        let misspelt = try electricRidePlan.replacingOccurrences(of: "schemas: [public, storage]", with: "schemas: [public, storage, pubic]")
        #expect(misspelt != (try electricRidePlan))
        let schema = try #require(throws: AccessPlanError.self) { try run(misspelt, on: connection) }
        #expect(schema.message.contains("schema 'pubic' does not exist in the database"), "\(schema.message)")
        #expect(try connection.query("select count(*) from auth.users where email like '%.plan@example.com'").scalar == "0")
        let left = try otherSessions(connection)
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aRefusedSecondSessionLeavesEverythingToTheRunsOwn() throws {
        let (connection, admin) = try electricRide()
        let plan = try electricRidePlan
        let expected = lines(try run(plan, on: connection, inBackground: false))
        // Only the run's own session may connect now (postgres is no superuser).
        let database = try #require(admin.parameters["dbname"])
        let superuser = try Connection(admin.withDatabase("postgres"))
        try superuser.execute("alter database \(raw: "\"" + database + "\"") connection limit 1")
        defer { _ = try? superuser.execute("alter database \(raw: "\"" + database + "\"") connection limit -1") }
        #expect(throws: PGError.self) { try Connection(connection.settings) }
        let report = try run(plan, on: connection)
        #expect(report.failures.isEmpty)
        #expect(lines(report) == expected)
    }

    @Test func aPlanThatMissesTheCatalogIsReportedBeforeItsFailingSetup() throws {
        let (connection, _) = try electricRide()
        let text = try electricRidePlan
            .replacingOccurrences(of: "\nrelations:\n", with: "  - select 1 / 0\n\nrelations:\n  nowhere: { sample: { id: \"1\" }, access: { anon: none } }\n")
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        #expect(error.message.contains("unknown relation public.nowhere"), "\(error.message)")
        let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.hasPrefix("  nowhere:") }) + 1
        #expect(error.line == line)
        #expect(try connection.query("select count(*) from auth.users where email like '%.plan@example.com'").scalar == "0")
    }

    /// A setup that changes the catalog the second session read (here a trigger that
    /// sends NOTIFY on an exposed table) has the run read the notes again on its own
    /// session: they name what the setup made, as when the notes were read at the end.
    @Test func aSetupThatChangesTheCatalogIsInTheNotes() throws {
        let (connection, _) = try electricRide()
        let text = try electricRidePlan.replacingOccurrences(of: "\nrelations:\n", with: """
              - create schema plan_private
              - |
                create function plan_private.ping() returns trigger language plpgsql
                as $$ begin perform pg_notify('plan', 'ping'); return new; end $$
              - create trigger plan_ping after insert on public.colour for each row execute function plan_private.ping()

            relations:

            """)
        let note = "trigger plan_ping on public.colour calls plan_private.ping(): sends NOTIFY"
        let both = try run(text, on: connection)
        #expect(both.undoableSideEffects.contains(note), "\(both.undoableSideEffects)")
        #expect(lines(both) == lines(try run(text, on: connection, inBackground: false)))
        #expect(both.failures.isEmpty)
    }
}
