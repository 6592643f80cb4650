import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// An always-true write policy is tried as a persona of a role it applies to, and only
/// for its own command. A policy only for anon was tried as ava, whose refusal (42501)
/// made it HARMLESS while anon could rewrite every row (an education app, round
/// twenty-six); each finding listed the probes of every command.
@Suite struct AlwaysTruePolicyRoleTests {
    @Test func aPolicyForAnonIsTriedAsAnonForItsOwnCommand() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("alwaystrueanon").project)
        try connection.execute(unsafeScript: """
            create table public.marks (id bigint generated always as identity primary key, subject text not null);
            insert into public.marks (subject) values ('maths');
            alter table public.marks enable row level security;
            grant select, insert, update, delete on public.marks to anon, authenticated;
            create policy "anon read" on public.marks for select to anon using (true);
            create policy "anon write" on public.marks for insert to anon with check (true);
            create policy "anon change" on public.marks for update to anon using (true) with check (true);
            create policy "anon remove" on public.marks for delete to anon using (true);
            """)
        let report = try Linter(connection: connection).run()
        func evidence(_ policy: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule == .rlsPolicyAlwaysTrue && $0.policies == [policy] }, "\(report.findings)")
        }
        let write = try evidence("anon write")
        #expect(write.consequence?.evidence == ["anon inserted a row of public.marks"])
        #expect(write.isDanger)
        let change = try evidence("anon change")
        #expect(change.consequence?.evidence == ["anon updated 1 row of public.marks"])
        #expect(change.isDanger)
        let remove = try evidence("anon remove")
        #expect(remove.consequence?.evidence == ["anon deleted 1 row of public.marks"])
        #expect(remove.isDanger)
    }

    /// A policy for a role no persona acts as says nothing either way.
    @Test func aPolicyForAnotherRoleIsNotProbed() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("alwaystrueother").project)
        try connection.execute(unsafeScript: """
            create role reporting nologin;
            create table public.tallies (id bigint generated always as identity primary key, total int not null default 0);
            alter table public.tallies enable row level security;
            grant select, update on public.tallies to reporting, authenticated;
            create policy "reporting updates" on public.tallies for update to reporting, anon using (true) with check (true);
            """)
        var linter = Linter(connection: connection)
        linter.personas = PlanDrafter.personas().filter { $0.role != "anon" }
        let report = try linter.run()
        let finding = try #require(report.findings.first { $0.rule == .rlsPolicyAlwaysTrue }, "\(report.findings)")
        #expect(finding.consequence?.verdict == .notProbed)
        #expect(finding.consequence?.evidence == ["the policy applies to anon, reporting, a role no persona acts as"])
    }

    /// Without a plan, anon's always-true policies go under anon's cell, one line each:
    /// they were DANGERs of their own, each with its probes, beside the cell's.
    @Test func anonsAlwaysTruePoliciesGoUnderAnonsCell() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("alwaystruefold").project)
        try connection.execute(unsafeScript: """
            create table public.marks (id bigint generated always as identity primary key, subject text not null);
            alter table public.marks enable row level security;
            grant select, insert, update, delete on public.marks to anon, authenticated;
            create policy "anon read" on public.marks for select to anon using (true);
            create policy "anon write" on public.marks for insert to anon with check (true);
            create policy "anon remove" on public.marks for delete to anon using (true);
            """)
        let report = ObservedAccessReport(try PlanDrafter(connection: connection).draft(), planFile: "access-plan.yml")
        #expect(report.dangerLines == [
            "DANGER public.marks · anon: anon (no sign-in) may insert, delete",
            "  lint: rls_policy_always_true: policy \"anon remove\" on public.marks (delete, to anon) lets every row through: USING is always true",
            "  lint: rls_policy_always_true: policy \"anon write\" on public.marks (insert, to anon) lets every row through: WITH CHECK is always true",
        ], "\(report.dangerLines)")
    }

    /// An insert policy that lets every row in, on a table whose sample looks its parent
    /// up (`team_id`: the persona's team), where the parent's policies recurse (42P17 as
    /// any signed-in user): the sample was evaluated inside ava's insert, as ava, so the
    /// lookup failed, and the finding was "not probed" while `dev` said DANGER (round
    /// forty). The sample is now evaluated as the admin with ben's claims, as the access
    /// plan's own insert of another user's row is, and ava inserts those values (ben has
    /// no team here: its NOT NULL, checked after the policy, shows the policy let it in).
    @Test func anInsertAsAnotherUserTakesTheSampleEvaluatedAsThatUser() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("alwaystruesample").project)
        try connection.execute(unsafeScript: """
            create table public.teams (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id), name text not null);
            create table public.team_members (team_id uuid not null references public.teams (id),
              user_id uuid not null references auth.users (id), primary key (team_id, user_id));
            create table public.notes (id uuid primary key default gen_random_uuid(),
              team_id uuid not null references public.teams (id),
              author_id uuid not null default auth.uid() references auth.users (id), body text not null);
            alter table public.teams enable row level security;
            alter table public.team_members enable row level security;
            alter table public.notes enable row level security;
            create policy teams_read on public.teams for select to authenticated using (owner_id = auth.uid()
              or exists (select 1 from public.team_members m where m.team_id = teams.id and m.user_id = auth.uid()));
            create policy members_read on public.team_members for select to authenticated using (
              exists (select 1 from public.teams t where t.id = team_members.team_id and t.owner_id = auth.uid()));
            create policy notes_read on public.notes for select to authenticated using (author_id = auth.uid());
            create policy "anyone writes" on public.notes for insert to authenticated with check (true);
            grant select on public.teams, public.team_members to authenticated;
            grant select, insert on public.notes to authenticated;
            """)
        let report = try Linter(connection: connection).run()
        let finding = try #require(report.findings.first { $0.rule == .rlsPolicyAlwaysTrue && $0.policies == ["anyone writes"] },
                                   "\(report.findings)")
        #expect(finding.consequence?.verdict == .proven, "\(String(describing: finding.consequence))")
        let insert = try #require(finding.consequence?.evidence.first)
        #expect(insert.hasPrefix("ava's insert into public.notes as ben passed the policy") && !insert.contains("42P17"), "\(insert)")
    }
}
