import Foundation
import Testing
import WardenKit
import TestSupport

/// A persona's role may have settings that change how values print (`alter role
/// authenticated set timezone = ...`); PostgREST applies them to every request, so the
/// persona reads a `timestamptz` in its own time zone. The truth the reads are compared
/// with is computed with the same print settings (`PersonaRequest.truthSettings`), and
/// one persona's truth stands for another's only when both print alike.
@Suite struct PrintSettingsTruthTests {
    /// The roles made here are the cluster's: a server of this suite's own keeps them
    /// out of the other suites' catalogs (the twin's facts, the sealed runs' digests).
    private static let server = TestServer()
    private static let paris = "print_paris", tokyo = "print_tokyo", plain = "print_plain"

    /// The three roles, made once for the suite's tests (which run at once), members
    /// of the project owner so it may act as them.
    private static let roles = Result {
        let superuser = try Connection(try server.newTwinDatabase("print_roles").admin)
        defer { superuser.close() }
        for (role, zone) in [(paris, "Europe/Paris"), (tokyo, "Asia/Tokyo"), (plain, nil)] {
            try superuser.execute("create role \(raw: role) nologin")
            if let zone { try superuser.execute("alter role \(raw: role) set timezone = \(literal: zone)") }
            try superuser.execute("grant \(raw: role) to postgres")
        }
    }

    /// `public.stamped` (a `timestamptz` per user, each reads their own through a
    /// policy) and `public.clock` (no row security), readable by three roles: one in
    /// Paris' time zone, one in Tokyo's, one with none of its own.
    private func database() throws -> Connection {
        try Self.roles.get()
        let connection = try Connection(try Self.server.newTwinDatabase("print").project)
        try connection.execute(
            """
            create table public.stamped (id bigint generated always as identity primary key, user_id uuid,
                                         at timestamptz not null);
            alter table public.stamped enable row level security;
            create policy "each reads their own" on public.stamped for select using (user_id = auth.uid());
            create table public.clock (id int primary key, at timestamptz not null);
            insert into public.clock values (1, '2026-11-28 12:00:00+00');
            grant select on public.stamped, public.clock to \(raw: Self.paris), \(raw: Self.tokyo), \(raw: Self.plain)
            """)
        return connection
    }

    private func run(_ plan: String, on connection: Connection) throws -> AccessPlanReport {
        try AccessPlanRunner(connection: connection, plan: AccessPlanParser(file: "print.yml").parse(plan)).run()
    }

    @Test func ownRowsReadInTheRolesTimeZoneMatchTheTruth() throws {
        let connection = try database()
        let report = try run(
            """
            schemas: [public]
            personas:
              ava: { role: \(Self.paris), email: ava.print@example.com }
              ben: { role: \(Self.paris), email: ben.print@example.com }
            setup:
              - |
                insert into public.stamped (user_id, at)
                select id, '2026-11-28 12:00:00+00' from auth.users where email like '%.print@example.com'
            relations:
              stamped:
                owner: user_id = auth.uid()
                sample: { at: "'2026-11-28 12:00:00+00'" }
                access: { \(Self.paris): { select: own } }
              clock:
                sample: { id: "2", at: "now()" }
                access: { \(Self.paris): read }
            """, on: connection)
        #expect(report.failures.map(\.name) == [])
        let reads = report.results.filter { $0.operation == .select && $0.subject == "public.stamped" }
        #expect(reads.map(\.observed) == ["own (1 rows)", "own (1 rows)"])
    }

    @Test func personasThatPrintDifferentlyKeepTheirOwnTruth() throws {
        let connection = try database()
        try connection.execute("drop table public.stamped")  // no one has a row of it
        let report = try run(
            """
            schemas: [public]
            personas:
              paris: { role: \(Self.paris) }
              tokyo: { role: \(Self.tokyo) }
              plain: { role: \(Self.plain) }
            relations:
              clock:
                sample: { id: "2", at: "now()" }
                access: { paris: read, tokyo: read, plain: read }
            """, on: connection)
        #expect(report.failures.map(\.name) == [])
        let reads = report.results.filter { $0.operation == .select && $0.subject == "public.clock" }
        #expect(reads.map(\.observed) == ["all (1 rows)", "all (1 rows)", "all (1 rows)"])
    }

    @Test func aReadOfAsManyRowsWithOtherValuesSaysSo() throws {
        // The view shows who reads it: the persona's role, where the admin sees its own.
        let connection = try database()
        try connection.execute(
            """
            drop table public.stamped;
            create view public.clock_reader with (security_invoker = true) as
              select id, current_user::text as reader from public.clock;
            grant select on public.clock_reader to \(raw: Self.plain)
            """)
        let report = try run(
            """
            schemas: [public]
            personas:
              plain: { role: \(Self.plain) }
            relations:
              clock:
                sample: { id: "2", at: "now()" }
                access: { plain: read }
              clock_reader:
                access: { plain: read }
            """, on: connection)
        #expect(report.failures.map(\.name) == ["plain · public.clock_reader · select"])
        #expect(report.failures.map(\.observed) == ["1 rows: neither all (1) nor own (-): as many as all, but other rows or values"])
    }
}
