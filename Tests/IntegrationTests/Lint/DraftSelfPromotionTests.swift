import Foundation
import Testing
import WardenKit
import TestSupport

/// A user making themselves an administrator by updating their own row (`update
/// profiles set is_admin = true where id = auth.uid()`): `update: own` held, and no
/// DANGER showed (an education app, round twenty-six). The draft checks it for each
/// column holding a privilege the project's rules read, and keeps it as it came out.
@Suite struct DraftSelfPromotionTests {
    static func profiles(_ extra: String) -> String {
        """
        create table public.profiles (
          id uuid primary key references auth.users (id) on delete cascade, display_name text not null default 'x',
          is_admin boolean not null default false, role text not null default 'member' check (role in ('member', 'admin')));
        create table public.notes (
          id bigint generated always as identity primary key,
          author_id uuid not null default auth.uid() references public.profiles (id), body text not null default '');
        create function public.is_admin() returns boolean language sql stable security definer set search_path = ''
          as $$ select exists (select 1 from public.profiles where id = (select auth.uid()) and (is_admin or role = 'admin')) $$;
        revoke execute on function public.is_admin() from public, anon;
        alter table public.profiles enable row level security;
        alter table public.notes enable row level security;
        revoke all on public.profiles, public.notes from anon, authenticated;
        grant select, insert on public.profiles to authenticated;
        grant select, insert on public.notes to authenticated;
        create policy "own or admin" on public.profiles for select to authenticated using (id = (select auth.uid()) or public.is_admin());
        create policy "make own" on public.profiles for insert to authenticated with check (id = (select auth.uid()));
        create policy "edit own" on public.profiles for update to authenticated
          using (id = (select auth.uid())) with check (id = (select auth.uid()));
        create policy "own or admin" on public.notes for select to authenticated using (author_id = (select auth.uid()) or public.is_admin());
        \(extra)
        """
    }

    @Test func aUserWhoMayUpdateTheirWholeProfileMakesThemselvesAnAdministrator() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromote", Self.profiles("grant update on public.profiles to authenticated;"))
        let names = draft.plan.checks.map(\.name)
        #expect(names == ["ava sets is_admin to true in a public.profiles row of ava's",
                          "ava sets role to 'admin' in a public.profiles row of ava's"], "\(draft.yaml)")
        #expect(draft.plan.checks.allSatisfy { $0.expectation.rowCount == 1 }, "\(draft.yaml)")
        #expect(draft.dangerCells.filter { $0.hasPrefix("public.profiles · ava: a signed-in user may set their own") }.count == 2,
                "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Only the display name is the user's to update (`grant update (display_name)`): nothing to try.
    @Test func aColumnGrantKeepsThePrivilegeAsItCameOut() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromotegrant", Self.profiles(
            "grant update (display_name) on public.profiles to authenticated;"))
        #expect(draft.plan.checks.isEmpty, "columns authenticated may not update are not tried: \(draft.plan.checks.map(\.name))")

        // A trigger that refuses a change of role: kept, expecting its P0001.
        let guarded = try DraftRealProjectShapesTests.draft("selfpromotetrigger", Self.profiles("""
            grant update on public.profiles to authenticated;
            create function public.keep_role() returns trigger language plpgsql as $$
            begin
              if new.role is distinct from old.role or new.is_admin is distinct from old.is_admin then
                raise exception 'only an administrator may change a role';
              end if;
              return new;
            end $$;
            create trigger keep_role before update on public.profiles for each row execute function public.keep_role();
            """))
        #expect(guarded.plan.checks.count == 2, "\(guarded.yaml)")
        #expect(guarded.plan.checks.allSatisfy { $0.expectation.sqlState == "P0001" }, "\(guarded.yaml)")
        #expect(!guarded.dangerCells.contains { $0.contains("may set their own") }, "\(guarded.dangerCells)")
        #expect(guarded.verified, "\(DraftRealProjectShapesTests.failures(guarded))")
    }

    /// A note's `kind` ('draft' or 'poll'), which only an RPC filtering the caller's own
    /// notes names (`where kind = 'poll' and owner_id = auth.uid()`): a category, not a
    /// privilege. No other table's policy reads notes, and their own policies do not name
    /// 'poll': there was a made-up DANGER, "may set their own kind to 'poll'" (a family
    /// planner app).
    @Test func aCategoryOnlyAFunctionOnTheCallersOwnRowsNamesIsNoPrivilege() throws {
        let draft = try DraftRealProjectShapesTests.draft("categorykind", """
            create table public.notes (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id),
              kind text not null default 'draft' check (kind in ('draft', 'poll')), body text);
            alter table public.notes enable row level security;
            create policy own on public.notes for all to authenticated
              using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
            create function public.close_poll(p_id uuid) returns void language sql security definer set search_path = '' as $$
              update public.notes set body = 'closed' where id = p_id and kind = 'poll' and owner_id = auth.uid();
            $$;
            """)
        #expect(!draft.plan.checks.contains { $0.name.contains("sets kind") }, "\(draft.plan.checks.map(\.name))")
        #expect(!draft.dangerCells.contains { $0.contains("kind") }, "\(draft.dangerCells)")
    }
}
