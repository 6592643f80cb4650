import Foundation
import Testing
import WardenKit
import TestSupport

/// Organisations and their members, the members' own policy through a security definer
/// helper (`is_member(org_id)`, as Supabase's guide advises against recursion), with a
/// user column that may be null. The draft's setup left `user_id` out of each persona's
/// member row (only columns an insert must give were filled), so no persona was a member
/// of anything, and both personas' rows pointed at the first organisation: a real
/// member's access never showed, and the drafted plan failed its own run (a multi-tenant
/// starter). Now a table with an owner rule gets its user columns filled with the persona,
/// and each persona's row picks its own referenced row where there are enough.
@Suite struct DraftMembershipThroughFunctionTests {
    static let schema = """
        create table public.orgs (id bigint generated always as identity primary key, name text not null);
        create table public.members (
          org_id bigint not null references public.orgs on delete cascade,
          user_id uuid references auth.users on delete cascade);
        create function public.is_member(o bigint) returns boolean language sql stable security definer
          set search_path = '' as $$ select exists (select 1 from public.members where org_id = o and user_id = auth.uid()) $$;
        alter table public.orgs enable row level security;
        alter table public.members enable row level security;
        create policy "members read their orgs" on public.orgs for select to authenticated
          using (id in (select org_id from public.members where user_id = (select auth.uid())));
        create policy "members read their org's members" on public.members for select to authenticated
          using ((select public.is_member(org_id)));
        grant select on public.orgs, public.members to authenticated;
        """

    /// Organisations keyed by uuid and their members with a role, no policies yet.
    static let uuidOrgsAndMembers = """
        create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
        create table public.members (org_id uuid not null references public.orgs on delete cascade,
          user_id uuid not null references auth.users on delete cascade, role text not null default 'member',
          primary key (org_id, user_id));
        """

    /// The organisations read through a set-returning helper (`id in (select my_orgs())`),
    /// their key GENERATED ALWAYS: every sample named the key, so every insert was refused
    /// (428C9), the setup's too, and even the service role's cells said `····`, with an
    /// ERROR no client meets (a multi-tenant starter; round forty). The key is left to
    /// its identity.
    @Test func anIdentityKeyReadThroughAHelperIsLeftToItsIdentity() throws {
        let draft = try DraftRealProjectShapesTests.draft("identityhelper", """
            create table public.orgs (id bigint generated always as identity primary key, name text not null);
            create table public.members (org_id bigint not null references public.orgs (id),
              user_id uuid not null references auth.users (id));
            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            create function public.my_orgs() returns setof bigint language sql stable security definer
              set search_path = public as $$ select org_id from members where user_id = auth.uid() $$;
            create policy "read" on public.orgs for select using (id in (select public.my_orgs()));
            create policy "read" on public.members for select using (org_id in (select public.my_orgs()));
            """)
        let orgs = try #require(draft.plan.relations.first { $0.name == "orgs" })
        #expect(orgs.access["service"] == Access(select: .all, insert: .all, update: .all, delete: .all), "\(draft.yaml)")
        #expect(orgs.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("428C9"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    @Test func eachPersonaIsAMemberOfItsOwnOrganisation() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("memberfn").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.plan.setup.contains { $0.contains("insert into public.members (org_id, user_id)") }, "\(draft.plan.setup)")
        let members = try #require(draft.plan.relations.first { $0.name == "members" })
        let orgs = try #require(draft.plan.relations.first { $0.name == "orgs" })
        #expect(members.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(orgs.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("members") || $0.contains("orgs") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Tenancy through a helper that refuses a caller who is not signed in (`my_orgs()`
    /// raises 42501 'authentication required' without auth.uid()), as a messaging API
    /// has it. The truth evaluated the owner rule as anon too, where it raised, so the
    /// draft dropped every owner rule; and the setup picked each member's organisation
    /// through the rule as the admin, where it raised and lost every membership: no
    /// persona belonged to any organisation, 26 cells unprobed. A persona with no user
    /// owns no row (unless the plan says `own` for it), and the setup leaves out a rule
    /// that reads the claims through a helper.
    @Test func aHelperRefusingAnonymousCallersLeavesTheMembershipsProbed() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("memberraise").project)
        try connection.execute(unsafeScript: Self.uuidOrgsAndMembers + """

            create table public.notes (id uuid primary key default gen_random_uuid(),
              org_id uuid not null references public.orgs on delete cascade, body text not null);
            create function public.my_orgs(min_role text default 'member') returns setof uuid
            language plpgsql security definer set search_path = '' as $$
            begin
              if auth.uid() is null then raise exception 'authentication required' using errcode = '42501'; end if;
              return query select m.org_id from public.members m
                where m.user_id = auth.uid() and (min_role = 'member' or m.role = min_role);
            end $$;
            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            alter table public.notes enable row level security;
            create policy "members read their orgs" on public.orgs for select using (id in (select public.my_orgs()));
            create policy "members read their orgs' members" on public.members for select
              using (org_id in (select public.my_orgs()));
            create policy "members manage their orgs' notes" on public.notes for all
              using (org_id in (select public.my_orgs())) with check (org_id in (select public.my_orgs()));
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.owner == "org_id in (select public.my_orgs())", "\(draft.yaml)")
        #expect(notes.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(draft.plan.relations.first { $0.name == "orgs" }?.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("fails on its rows"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Direct messages: participants link users to conversations by a key that may be
    /// null, and `in_conversation(c)` reads them. The setup left the key NULL, so no
    /// persona was in any conversation: every message cell held vacuously, and a user
    /// joining anyone's conversation (the participants' insert policy accepts any own
    /// row) went unseen (a social app's DMs). A membership's group, and a key the
    /// table's own policies read, are given even when they may be null; and an insert
    /// sample that differs only in a random key (`id: gen_random_uuid()`) is no other
    /// user's row.
    @Test func aNullableConversationKeyStillPutsThePersonasInConversations() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("nullablegroup").project)
        try connection.execute(unsafeScript: """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, handle text);
            create table public.conversations (id uuid primary key default gen_random_uuid(), created_at timestamptz default now());
            create table public.participants (id uuid primary key default gen_random_uuid(),
              conversation_id uuid references public.conversations (id) on delete cascade,
              user_id uuid references public.profiles (id) on delete cascade, unique (conversation_id, user_id));
            create table public.messages (id uuid primary key default gen_random_uuid(),
              conversation_id uuid references public.conversations (id) on delete cascade,
              sender_id uuid references public.profiles (id), body text not null);
            create function public.in_conversation(c uuid) returns boolean language sql stable security definer
              set search_path = public as $$ select exists (select 1 from participants where conversation_id = c and user_id = auth.uid()) $$;
            alter table public.profiles enable row level security;
            alter table public.conversations enable row level security;
            alter table public.participants enable row level security;
            alter table public.messages enable row level security;
            create policy p_read on public.profiles for select using (true);
            create policy c_read on public.conversations for select using (public.in_conversation(id));
            create policy c_add on public.conversations for insert to authenticated with check (true);
            create policy pa_read on public.participants for select using (public.in_conversation(conversation_id));
            create policy pa_add on public.participants for insert with check (user_id = auth.uid() or public.in_conversation(conversation_id));
            create policy m_read on public.messages for select using (public.in_conversation(conversation_id));
            create policy m_send on public.messages for insert with check (sender_id = auth.uid() and public.in_conversation(conversation_id));
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.plan.relations.first { $0.name == "messages" }?.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(draft.plan.relations.first { $0.name == "conversations" }?.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.dangerCells.contains {
            $0.hasPrefix("public.participants · ava: a signed-in user may join another user's public.conversations rows")
        }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }
}
