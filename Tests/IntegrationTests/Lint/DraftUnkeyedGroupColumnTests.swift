import Foundation
import Testing
import WardenKit
import TestSupport

/// A group column without a foreign key (`recipes.team_id uuid not null`), passed to a
/// membership helper by the table's policy (`public.in_team(team_id)`), and a child read
/// through the recipe's own policy (`exists (select 1 from recipes r where r.id =
/// recipe_id)`). The setup gave `team_id` a random uuid, so no persona owned a recipe:
/// recipes and their steps showed "none" (proven, ✓) where members may read and write
/// them (a device fleet's pod descriptions and pods, round thirty-five).
@Suite struct DraftUnkeyedGroupColumnTests {
    @Test func aGroupColumnWithoutAForeignKeyTakesThePersonasGroup() throws {
        let draft = try DraftRealProjectShapesTests.draft("unkeyedgroup", DraftRealProjectShapesTests.teamsAndMembers + """
            create table public.recipes (id bigint generated always as identity primary key, team_id uuid not null, title text not null);
            create table public.recipe_steps (id bigint generated always as identity primary key,
              recipe_id bigint not null references public.recipes (id) on delete cascade, body text not null);
            alter table public.recipes enable row level security;
            alter table public.recipe_steps enable row level security;
            create policy recipes_member on public.recipes for all to authenticated
              using (public.in_team(team_id)) with check (public.in_team(team_id));
            create policy steps_member on public.recipe_steps for all to authenticated
              using (exists (select 1 from public.recipes r where r.id = recipe_id))
              with check (exists (select 1 from public.recipes r where r.id = recipe_id));
            """)
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        try DraftRealProjectShapesTests.expectEveryCellProbed(draft, table: "recipes", ava: own)
        try DraftRealProjectShapesTests.expectEveryCellProbed(draft, table: "recipe_steps", ava: own)
        #expect(draft.plan.relations.first { $0.name == "recipe_steps" }?.access["ben"] == own, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }

    /// The column passed beside the user's id to a helper that is told the user
    /// (`owns_venue(auth.uid(), venue_id)`, which reads no auth.uid() itself): a venue's
    /// slots had random venues, no persona owned one, and the draft failed six of its own
    /// probes (a booking marketplace, round thirty-six).
    @Test func aGroupColumnPassedBesideTheUsersIdTakesThePersonasGroup() throws {
        let draft = try DraftRealProjectShapesTests.draft("unkeyedbeside", """
            create table public.venues (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id), title text not null);
            alter table public.venues enable row level security;
            create policy venues_owner on public.venues for all to authenticated
              using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create function public.owns_venue(_user uuid, _venue uuid) returns boolean language sql stable security definer
              set search_path = '' as $$ select exists (select 1 from public.venues where id = _venue and owner_id = _user) $$;
            create table public.slots (id uuid primary key default gen_random_uuid(), venue_id uuid not null, starts_at text not null);
            alter table public.slots enable row level security;
            create policy slots_owner on public.slots for all to authenticated
              using (public.owns_venue(auth.uid(), venue_id)) with check (public.owns_venue((select auth.uid()), venue_id));
            """)
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        try DraftRealProjectShapesTests.expectEveryCellProbed(draft, table: "slots", ava: own)
        #expect(draft.plan.relations.first { $0.name == "slots" }?.access["ben"] == own, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }
}
