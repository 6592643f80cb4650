import Foundation
import Testing
import WardenKit
import TestSupport

/// A persona's role may have settings that change how values print (`alter role
/// authenticated set timezone = ...`); PostgREST applies them to every request, so the
/// persona reads a `timestamptz` in its own time zone. The truth the reads are compared
/// with is computed with the same print settings (`PersonaRequest.truthSettings`), and
/// one persona's truth stands for another's only when both print alike. The same holds
/// for a role's own `search_path`, which decides what a name in a function body means.
@Suite struct PrintSettingsTruthTests {
    /// The roles made here are the cluster's: a server of this suite's own keeps them
    /// out of the other suites' catalogs (the twin's facts, the sealed runs' digests).
    private static let server = TestServer()
    private static let paris = "print_paris", tokyo = "print_tokyo", plain = "print_plain"
    /// A role with a `search_path` of its own (`shadow` first), which replaces the
    /// request's, as behind PostgREST.
    private static let pathed = "print_pathed"

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
        try superuser.execute("create role \(raw: pathed) nologin")
        try superuser.execute("alter role \(raw: pathed) set search_path = shadow, public")
        try superuser.execute("grant \(raw: pathed) to postgres")
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

    /// A view column computed by a function without a `search_path` of its own: the
    /// persona's role puts `shadow` first, so it reads `shadow.labels`; the truth is
    /// computed with the role's `search_path` too, so the read matches it (before, the
    /// truth read `public.labels`: "as many as all, but other rows or values").
    @Test func aRolesOwnSearchPathHoldsForTheTruthToo() throws {
        let connection = try database()
        try connection.execute(
            """
            drop table public.stamped;
            create schema shadow;
            create table shadow.labels (name text);
            create table public.labels (name text);
            insert into shadow.labels values ('shadow');
            insert into public.labels values ('public');
            create function public.label() returns text language plpgsql stable as $$
            begin return (select name from labels limit 1); end $$;
            create view public.labelled with (security_invoker = true) as select id, public.label() as label from public.clock;
            grant usage on schema shadow to \(raw: Self.pathed);
            grant select on shadow.labels, public.labels, public.labelled, public.clock to \(raw: Self.pathed)
            """)
        let report = try run(
            """
            schemas: [public]
            personas:
              pathed: { role: \(Self.pathed) }
            relations:
              clock:
                sample: { id: "2", at: "now()" }
                access: { pathed: read }
              labels:
                sample: { name: "'probe'" }
                access: { pathed: read }
              labelled:
                access: { pathed: read }
            functions:
              label(): { pathed: execute }
            """, on: connection)
        #expect(report.failures.map { "\($0.name): \($0.observed)" } == [])
        let read = report.results.first { $0.subject == "public.labelled" && $0.operation == .select }
        #expect(read?.observed == "all (1 rows)")
    }
}
