import Foundation
import Testing
import WardenKit
import TestSupport

/// A client's request commits, and only then are its deferred constraints checked
/// (`deferrable initially deferred` keys, constraint triggers). The run never commits:
/// each write probe and each check fires them as a commit would
/// (`DeferredConstraints`), where "insert: allowed" was observed for a team that the
/// database refuses at commit for having no owner.
@Suite struct DeferredConstraintTests {
    /// Teams that must have an owner among their members when the transaction ends
    /// (a deferred constraint trigger); members whose team key is deferred; a sequence
    /// that counts every firing of the owner trigger (a sequence is not rolled back).
    static let schema = """
        create sequence public.owner_checks;
        create table public.teams (
          id uuid primary key default gen_random_uuid(), name text not null default 't',
          created_by uuid not null default auth.uid() references auth.users (id));
        create table public.members (
          team_id uuid not null references public.teams (id) deferrable initially deferred,
          user_id uuid not null references auth.users (id),
          role text not null default 'member', primary key (team_id, user_id));
        create function public.team_has_owner() returns trigger language plpgsql security definer set search_path = '' as $$
        begin
          perform nextval('public.owner_checks');
          if not exists (select 1 from public.members m where m.team_id = new.id and m.role = 'owner') then
            raise exception 'team % has no owner', new.id;
          end if;
          return null;
        end $$;
        create constraint trigger team_needs_owner after insert on public.teams
          deferrable initially deferred for each row execute function public.team_has_owner();
        alter table public.teams enable row level security;
        alter table public.members enable row level security;
        create policy teams_read on public.teams for select to authenticated using (created_by = auth.uid());
        create policy teams_add on public.teams for insert to authenticated with check (created_by = auth.uid());
        create policy teams_drop on public.teams for delete to authenticated using (created_by = auth.uid());
        create policy members_read on public.members for select to authenticated using (user_id = auth.uid());
        create policy members_add on public.members for insert to authenticated with check (user_id = auth.uid());
        """

    static let personas = """
        schemas: [public]
        personas:
          ava: { role: authenticated, email: ava.deferred@example.com }
          ben: { role: authenticated, email: ben.deferred@example.com }
        """

    /// Each persona's team, with its owner membership (the setup commits as a client could).
    static let setup = """
        setup:
          - |
            insert into public.teams (name, created_by) select 'team', id from auth.users where email like '%.deferred@example.com';
            insert into public.members (team_id, user_id, role) select t.id, t.created_by, 'owner' from public.teams t;
        """

    static let relations = """
        relations:
          teams:
            owner: "created_by = auth.uid()"
            sample: { created_by: "auth.uid()" }
            access:
              ava: { select: own, delete: own }
              ben: { select: own, delete: own }
          members:
            owner: "user_id = auth.uid()"
            sample: { team_id: "(select id from public.teams where created_by = auth.uid())", user_id: "auth.uid()" }
            access:
              ava: { select: own, insert: own }
              ben: { select: own, insert: own }
        """

    static func run(_ label: String, _ parts: [String]) throws -> (report: AccessPlanReport, connection: Connection) {
        let connection = try Connection(try TestCluster.newTwinDatabase(label).project)
        try connection.execute(unsafeScript: schema)
        let report = try AccessPlanRunner(
            connection: connection, plan: try AccessPlanParser(file: "deferred.yml").parse(parts.joined(separator: "\n"))).run()
        return (report, connection)
    }

    static func result(_ report: AccessPlanReport, _ name: String) throws -> ProbeResult {
        try #require(report.results.first { $0.name == name }, "\(report.results.map(\.name))")
    }

    /// A team inserted alone has no owner: the deferred trigger refuses it at commit, so
    /// the insert is refused, not "1 row" (which the old run observed, and the draft
    /// turned into `insert: own`). A member row naming no team breaks the deferred key
    /// (23503), and deleting a team its members still name does too: access control let
    /// them through, so they count as allowed, with the constraint named.
    @Test func aWriteADeferredConstraintRefusesAtCommitIsObservedRefused() throws {
        let (report, connection) = try Self.run("deferredwrites", [Self.personas, Self.setup, Self.relations])
        #expect(report.failures.map(\.name) == [], "\(report.failures.map { "\($0.name): \($0.observed)" })")
        let insert = try Self.result(report, "ava · public.teams · insert own row")
        #expect(insert.observed.hasPrefix("refused by the database's own code (P0001: team "), "\(insert.observed)")
        #expect(insert.observed.contains("has no owner"), "\(insert.observed)")
        let delete = try Self.result(report, "ava · public.teams · delete own row")
        #expect(delete.observed.hasPrefix("allowed, then stopped by a constraint (23503:"), "\(delete.observed)")
        // Fired once for each setup team (two), then once for each insert probe (two):
        // the setup's pending checks were not fired again in every probe.
        #expect(try connection.query("select last_value::text from public.owner_checks").scalar == "4")
        // Nothing stays: no team, and the constraints' mode is the session's default again.
        #expect(try connection.query("select count(*)::text from public.teams").scalar == "0")
    }

    /// A setup whose rows no client's transaction could commit (a team with no owner)
    /// stops the run, naming the constraint's error, instead of probing a state that
    /// cannot exist.
    @Test func aSetupThatCouldNotCommitStopsTheRun() throws {
        let setup = """
            setup:
              - insert into public.teams (name, created_by) select 'team', id from auth.users where email like '%.deferred@example.com'
            """
        let error = #expect(throws: DeferredSetupRefusal.self) {
            _ = try Self.run("deferredsetup", [Self.personas, setup, Self.relations])
        }
        let refusals = error?.refusals ?? []
        #expect(refusals.map(\.table) == ["public.teams"], "\(refusals)")
        #expect(refusals.first?.message.hasSuffix("has no owner (P0001)") == true, "\(refusals)")
        #expect(error?.description.contains("leave rows that a deferred constraint refuses at commit (public.teams: team ") == true,
                "\(String(describing: error))")
    }

    /// A check is a client's request too: its deferred checks fire after its SQL, so a
    /// check that expects the trigger's refusal passes, and one that expects a row fails.
    /// The third goes the unbatched way (a failure with a `verify`): its refusal leaves
    /// the transaction usable for the verify, which sees only the setup's teams.
    @Test func aCheckMeetsTheDeferredConstraintsOfItsSQL() throws {
        let checks = """
            checks:
              - name: a team alone is refused at commit
                as: ava
                sql: "insert into public.teams (name) values ('solo')"
                expect: { sqlstate: P0001 }
              - name: a team with its owner commits
                as: ava
                sql: |
                  insert into public.teams (id, name) values ('00000000-0000-4000-8000-000000000001', 'pair');
                  insert into public.members (team_id, user_id, role) values ('00000000-0000-4000-8000-000000000001', auth.uid(), 'owner');
                expect: { row_count: 1 }
              - name: a team alone, then verified
                as: ava
                sql: "insert into public.teams (name) values ('solo')"
                expect: { sqlstate: P0001 }
                verify: "select count(*) = 2 from public.teams"
            """
        let (report, _) = try Self.run("deferredchecks", [Self.personas, Self.setup, Self.relations, checks])
        #expect(report.failures.map(\.name) == [], "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(report.results.filter { $0.subjectKind == .check }.count == 3)
    }

    /// Lint's calls fire them too: a security definer function anon may call that
    /// makes a team with no owner member fails for a client at commit, so it proves
    /// nothing (it was "inserted 1 row of public.teams", a proven DANGER); one that
    /// makes the owner member too still proves its writes. The teams lint makes for its
    /// always-true update policy have no owner member either: they are not made, and
    /// leave no pending check for the calls after them.
    @Test func lintsCallsFireThemAsACommitWould() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("deferredlint").project)
        try connection.execute(unsafeScript: Self.schema + """

            create policy teams_rename on public.teams for update to authenticated using (true);
            grant update on public.teams to authenticated;

            create function public.start_orphan_team() returns uuid language sql security definer set search_path = '' as $$
              insert into public.teams (name, created_by) select 'orphan', id from auth.users order by created_at limit 1 returning id
            $$;
            create function public.start_owned_team() returns uuid language plpgsql security definer set search_path = '' as $$
            declare team uuid; owner uuid;
            begin
              select id into owner from auth.users order by created_at limit 1;
              insert into public.teams (name, created_by) values ('owned', owner) returning id into team;
              insert into public.members (team_id, user_id, role) values (team, owner, 'owner');
              return team;
            end $$;
            """)
        let report = try Linter(connection: connection, schemas: ["public"]).run()
        func anonCall(_ function: String) throws -> LintFinding {
            try #require(report.findings.first {
                $0.rule.rawValue == "anon_security_definer_function_executable" && $0.subject == "public.\(function)()"
            })
        }
        let orphan = try anonCall("start_orphan_team")
        #expect(orphan.consequence?.verdict == .notProbed, "\(orphan.consequence?.evidence ?? [])")
        #expect(orphan.consequence?.evidence.first?.contains("failed, P0001 team ") == true, "\(orphan.consequence?.evidence ?? [])")
        #expect(orphan.consequence?.evidence.first?.contains("has no owner") == true, "\(orphan.consequence?.evidence ?? [])")
        let owned = try anonCall("start_owned_team")
        #expect(owned.consequence?.verdict == .proven, "\(owned.consequence?.evidence ?? [])")
        #expect(owned.consequence?.evidence.first?.contains("inserted 1 row of public.members") == true,
                "\(owned.consequence?.evidence ?? [])")
    }
}
