import Foundation
import Testing
import WardenKit
import TestSupport

/// `plan draft`: the draft of each example passes `pgwarden test` unchanged on the
/// same database, states the same cells as the hand-written plan, marks dangerous
/// cells, and leaves nothing behind.
@Suite struct PlanDraftTests {
    /// Role -> relation -> the set of accesses the plan gives personas with that role.
    private func relationCells(_ plan: AccessPlan) -> [String: [String: Set<String>]] {
        var cells: [String: [String: Set<String>]] = [:]
        for relation in plan.relations {
            for persona in plan.personas {
                let access = relation.access[persona.name] ?? .nothing
                let text = AccessOperation.allCases.map { access.scope(of: $0).rawValue }.joined(separator: "/")
                cells[persona.role, default: [:]][relation.qualifiedName, default: []].insert(text)
            }
        }
        return cells
    }

    private func functionCells(_ plan: AccessPlan) -> [String: [String: Set<Bool>]] {
        var cells: [String: [String: Set<Bool>]] = [:]
        for function in plan.functions {
            for persona in plan.personas {
                cells[persona.role, default: [:]][function.signature, default: []].insert(function.execute[persona.name] ?? false)
            }
        }
        return cells
    }

    @Test(arguments: ["todo", "profiles"])
    func draftPassesAndEqualsTheHandWrittenCells(example: String) throws {
        let project = ExampleProject(name: example)
        let connection = try project.database()
        let before = try connection.query("select (select count(*) from auth.users)::text, (select count(*) from pg_class)::text").rows
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified)
        #expect(draft.dangers == 0)
        #expect(!draft.yaml.contains("NOTE:"))
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map(\.name))")
        let written = try AccessPlanParser.load(path: project.planPath)
        #expect(relationCells(drafted) == relationCells(written))
        // The written plan may list a trigger function (no request can call one); the
        // draft leaves them out.
        let triggers = Set(try connection.query(
            "select format('%s.%s(%s)', pronamespace::regnamespace, proname, pg_get_function_identity_arguments(oid)) from pg_proc where prorettype = 'trigger'::regtype").rows.compactMap { $0[0] })
        #expect(functionCells(drafted) == functionCells(written).mapValues { $0.filter { !triggers.contains($0.key) } })
        #expect(try connection.query("select (select count(*) from auth.users)::text, (select count(*) from pg_class)::text").rows == before)
    }

    @Test func draftOfElectricRidePassesWithOwnerRulesFromPoliciesAndViews() throws {
        let connection = try ElectricRide.database()
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified)
        #expect(!draft.yaml.contains("NOTE:"))
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        #expect(try AccessPlanRunner(connection: connection, plan: drafted).run().passed)
        let owners = Dictionary(uniqueKeysWithValues: drafted.relations.map { ($0.name, $0.owner ?? "-") })
        #expect(owners["patron"] == "user_id = auth.uid()")
        // saved's policy expression, and the view over saved inherits it.
        #expect(owners["saved"]?.contains("p.user_id = ( SELECT auth.uid() AS uid)") == true)
        #expect(owners["saved_listings"] == owners["saved"])
        // Signed-in users see every patron (sellers' contact details): flagged for review.
        #expect(draft.yaml.contains("      ava: read  # DANGER: a signed-in user sees other users' rows"))
        #expect(draft.dangers == 2)
    }

    @Test func marksTheDangerousCellsOfTheTodoTableWithoutRowLevelSecurity() throws {
        let connection = try ExampleProject(name: "todo").database(upTo: "20261122000100")
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified)
        #expect(draft.yaml.contains("      anon: all  # DANGER: anon (no sign-in) may insert, update, delete"))
        // No policy names an owner, so nothing tells own rows from others': every row.
        #expect(draft.yaml.contains("      ava: all  # DANGER: a signed-in user sees every user's rows (user column user_id) and may insert, update, delete every row"))
        #expect(draft.dangers == 3)
    }

    @Test func marksSecurityDefinerFunctionsAnonMayExecute() throws {
        let profiles = ExampleProject(name: "profiles")
        let connection = try profiles.database(upTo: "20261122000100")
        try connection.execute(unsafeScript: try String(
            contentsOf: profiles.root.appendingPathComponent("tutorial/published_functions.sql"), encoding: .utf8))
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified)
        // One: the published trigger function handle_new_user() is no request's to call.
        // For anon, delete_current_user() deletes nothing (no auth.uid()), as pgwarden
        // lint's call showed: a warning, not a DANGER.
        #expect(draft.yaml.split(separator: "\n").filter { $0.contains("# DANGER:") } == [])
        #expect(draft.yaml.split(separator: "\n").filter { $0.contains("# WARN:") } == [
            "    anon: execute  # WARN: anon (no sign-in) may execute this security definer function; pgwarden lint's call "
                + "as anon changed nothing and read nothing (unless anon must call it, pgwarden lint says how to take it from anon)",
        ])
        #expect(!draft.yaml.contains("handle_new_user"))
        // Lint rates it HARMLESS: a comment in the plan, no WARN line in dev.
        #expect(draft.warningCells.isEmpty, "\(draft.warningCells)")
    }

    /// A definer function anon may call that refuses anon with its own error (28000): lint
    /// could not show what it does and says WARN; dev said DANGER, and the draft's summary
    /// "1 cell marked DANGER, 0 lint dangers" (an organisations app, round twenty-nine).
    /// Both say WARN now, and dev prints it.
    @Test func aDefinerFunctionLintCouldNotShowHarmInIsAWarningInDevToo() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("anonwarn").project)
        try connection.execute(unsafeScript: """
            create table public.items (id bigint generated always as identity primary key,
              owner uuid not null default auth.uid() references auth.users (id));
            alter table public.items enable row level security;
            create policy items_own on public.items for all to authenticated
              using (owner = (select auth.uid())) with check (owner = (select auth.uid()));
            create function public.clear_my_items() returns integer language plpgsql security definer set search_path = '' as $$
            declare n integer;
            begin
              if auth.uid() is null then raise exception using errcode = '28000', message = 'authentication_required'; end if;
              delete from public.items where owner = auth.uid();
              get diagnostics n = row_count;
              return n;
            end $$;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.findings.dangers.isEmpty)
        #expect(draft.warningCells == ["public.clear_my_items() · anon: anon (no sign-in) may execute this security definer "
            + "function; pgwarden lint's call as anon could not show what it does (anon called public.clear_my_items(): "
            + "failed, 28000 authentication_required): review it (pgwarden lint says how to take it from anon)"],
                "\(draft.warningCells)")
        let observed = ObservedAccessReport(draft, planFile: "supabase/access-plan.yml").linesAfterMatrix(sayingNoDangers: true)
        #expect(observed.contains { $0.hasPrefix("WARN public.clear_my_items() · anon: ") }, "\(observed)")
    }

    @Test func commandWritesAFileThatTestAccepts() throws {
        let connection = try ExampleProject(name: "todo").database()
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "")
        let folder = TestFolder.url("draft")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardOutput.contains("pgwarden test passes with it"))
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
        let again = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(again.status == 65)
        #expect(again.standardError.contains("\(file): already exists"))
    }
}
