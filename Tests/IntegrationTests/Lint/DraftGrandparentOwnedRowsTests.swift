import Testing
import WardenKit

/// A sharing table (`grants (project_id, workspace_id, role, granted_by)`) whose insert
/// policy checks only the granter: ava could share ben's project into her own workspace
/// and then read it. The draft checked writing into another user's rows only for
/// parents with an owner column of their own (`workspaces.owner_id`), and `projects`,
/// owned through its workspace, was never tried (a Markdown workspace app, round
/// thirty-four).
@Suite struct DraftGrandparentOwnedRowsTests {
    static func schema(grantCheck: String) -> String {
        """
        create table public.workspaces (
          id uuid primary key default gen_random_uuid(), owner_id uuid not null default auth.uid() references auth.users (id));
        create table public.projects (
          id uuid primary key default gen_random_uuid(), workspace_id uuid not null references public.workspaces (id),
          title text not null default 'p');
        create table public.grants (
          id uuid primary key default gen_random_uuid(), project_id uuid not null references public.projects (id),
          workspace_id uuid not null references public.workspaces (id),
          granted_by uuid not null default auth.uid() references auth.users (id));
        alter table public.workspaces enable row level security;
        alter table public.projects enable row level security;
        alter table public.grants enable row level security;
        create policy ws_own on public.workspaces for all using (owner_id = auth.uid()) with check (owner_id = auth.uid());
        create policy pr_own on public.projects for all
          using (exists (select 1 from public.workspaces w where w.id = workspace_id and w.owner_id = auth.uid()))
          with check (exists (select 1 from public.workspaces w where w.id = workspace_id and w.owner_id = auth.uid()));
        create policy gr_read on public.grants for select using (granted_by = auth.uid());
        create policy gr_insert on public.grants for insert with check (\(grantCheck));
        """
    }

    static let check = "ava writes a public.grants row into a public.projects row of ben's"

    @Test func aRowNamingAnotherUsersProjectOwnedThroughItsWorkspaceIsTried() throws {
        let draft = try DraftRealProjectShapesTests.draft("grandparentowned", Self.schema(grantCheck: """
            granted_by = auth.uid() and exists (select 1 from public.workspaces w where w.id = workspace_id and w.owner_id = auth.uid())
            """))
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: Self.check, danger: "public.grants · ava: a signed-in user may write public.grants rows into other users' public.projects rows")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A policy that checks the project too refuses it: the check is kept as refused.
    @Test func aPolicyCheckingTheProjectRefusesIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("grandparentownedchecked", Self.schema(grantCheck: """
            granted_by = auth.uid() and exists (select 1 from public.projects p join public.workspaces w on w.id = p.workspace_id
                                                where p.id = project_id and w.owner_id = auth.uid())
            """))
        let check = try #require(draft.plan.checks.first { $0.name == Self.check }, "\(draft.yaml)")
        #expect(check.expectation.sqlState == "42501", "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("public.projects rows") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
