import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// The drafted setup gives a table's rows after the rows its foreign keys point at: a
/// join table whose name sorts first still gets rows for both personas, so every cell
/// is probed and the draft passes on its own database.
@Suite struct DraftSetupOrderTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/JoinTableDraft/migrations")

    @Test func aJoinTableIsSetUpAfterBothOfItsSides() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        let setup = draft.plan.setup.joined(separator: "\n")
        let positions = ["public.\"Notes\"", "public.tags", "public.a_note_tags"].compactMap { setup.range(of: "insert into \($0)")?.lowerBound }
        #expect(positions.count == 3 && positions.last == positions.max(), "\(setup)")
        let links = try #require(draft.plan.relations.first { $0.name == "a_note_tags" })
        #expect(links.access["ava"]?.select == .own, "\(draft.yaml)")
    }

    @Test func theOrderPutsReferencedTablesFirstAndKeepsTheRest() {
        let references = ["a": ["c", "b"], "b": ["c"], "d": ["d"], "e": ["f"], "f": ["e"]]
        let order = DraftSetupOrder.ordered(["a", "b", "c", "d", "e", "f", "g"]) { references[$0] ?? [] }
        #expect(order == ["c", "b", "a", "d", "f", "e", "g"])
    }

    /// A reference that may be NULL closes no cycle: `profiles.avatar_photo_id -> photos
    /// -> albums -> profiles`, walked from profiles, put photos before any album.
    @Test func aNullableReferenceClosesNoCycle() {
        let needs: [String: [DraftSetupOrder.Reference]] = [
            "profiles": [.init(table: "photos", strong: false)],
            "photos": [.init(table: "albums", strong: true)],
            "albums": [.init(table: "profiles", strong: true)],
        ]
        let order = DraftSetupOrder.ordered(["profiles", "photos", "albums"]) { needs[$0] ?? [] }
        #expect(order == ["profiles", "albums", "photos"])
    }

    /// An insert trigger that logs the signed-in user into a table keyed to profiles,
    /// which sort after the items: the items came first, the log refused each one, and
    /// every item cell was "cannot probe" (an asset tracker, 40 of 348 probes). A table
    /// comes after what its insert triggers' rows need.
    @Test func aTableComesAfterWhatItsInsertTriggersRowsNeed() throws {
        let draft = try DraftRealProjectShapesTests.draft("triggerorder", """
            create table public.profiles (id uuid primary key references auth.users on delete cascade, display_name text);
            create table public.items (id uuid primary key default gen_random_uuid(), title text not null);
            create table public.item_events (id bigint generated always as identity primary key,
              item_id uuid not null references public.items on delete cascade, user_id uuid not null references public.profiles (id));
            create function public.log_item() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.item_events (item_id, user_id) values (new.id, auth.uid()); return new; end $$;
            create trigger log_item after insert on public.items for each row execute function public.log_item();
            alter table public.profiles enable row level security;
            alter table public.items enable row level security;
            alter table public.item_events enable row level security;
            create policy own on public.profiles for all using (id = auth.uid()) with check (id = auth.uid());
            create policy "read" on public.items for select to authenticated using (true);
            create policy own on public.item_events for select using (user_id = auth.uid());
            """)
        let items = try #require(draft.plan.relations.first { $0.name == "items" })
        #expect(items.access["ava"]?.select == .all, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A log whose key of two columns points at a link table that sorts after it
    /// (`price_changes (product_id, shop_id) -> shop_prices`), each column also a key of
    /// its own: the log was made first, found no price, and every cell of it, service's
    /// too, was "cannot probe" (a lab pricing app). The key of several columns orders too.
    @Test func aKeyOfSeveralColumnsOrdersTheSetup() throws {
        let draft = try DraftRealProjectShapesTests.draft("compositeorder", """
            create table public.products (id uuid primary key default gen_random_uuid(),
              user_id uuid not null default auth.uid() references auth.users);
            create table public.shops (id uuid primary key default gen_random_uuid(),
              user_id uuid not null default auth.uid() references auth.users);
            create table public.shop_prices (product_id uuid not null references public.products,
              shop_id uuid not null references public.shops, user_id uuid not null default auth.uid() references auth.users,
              price numeric not null, primary key (product_id, shop_id));
            create table public.price_changes (id uuid primary key default gen_random_uuid(),
              product_id uuid not null references public.products, shop_id uuid not null references public.shops,
              changed_by uuid not null default auth.uid() references auth.users,
              foreign key (product_id, shop_id) references public.shop_prices (product_id, shop_id));
            alter table public.products enable row level security;
            alter table public.shops enable row level security;
            alter table public.shop_prices enable row level security;
            alter table public.price_changes enable row level security;
            create policy own on public.products for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create policy own on public.shops for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create policy own on public.shop_prices for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create policy own on public.price_changes for all using (changed_by = auth.uid()) with check (changed_by = auth.uid());
            """)
        let changes = try #require(draft.plan.relations.first { $0.name == "price_changes" })
        #expect(changes.access["service"] == .everything, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A profile whose insert trigger makes the user's first workspace and its
    /// membership: set up after the workspaces, its trigger made a second workspace whose
    /// membership the setup's membership row then matched, and the setup's documents sat
    /// in a workspace the persona was no member of (12 cells "cannot probe"; an AI
    /// agency's app, round thirty-eight). The table a trigger writes comes after the
    /// trigger's table, and needs nothing the trigger makes itself.
    @Test func aTableAnotherTablesTriggerWritesComesAfterIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("triggerfirst", """
            create table public.workspaces (id uuid primary key default gen_random_uuid(),
              created_by uuid not null references auth.users (id));
            create table public.workspace_members (workspace_id uuid not null references public.workspaces (id) on delete cascade,
              user_id uuid not null references auth.users (id), primary key (workspace_id, user_id));
            create function public.has_access(ws uuid) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.workspace_members where workspace_id = ws and user_id = auth.uid()) $$;
            alter table public.workspaces enable row level security;
            create policy "read" on public.workspaces for select using (public.has_access(id));
            create policy "create" on public.workspaces for insert with check (created_by = auth.uid());
            alter table public.workspace_members enable row level security;
            create policy "read" on public.workspace_members for select using (public.has_access(workspace_id));
            create table public.profiles (user_id uuid primary key references auth.users (id), name text);
            alter table public.profiles enable row level security;
            create policy "own" on public.profiles for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.on_profile() returns trigger language plpgsql security definer set search_path = '' as $$
            declare ws uuid;
            begin
              insert into public.workspaces (created_by) values (new.user_id) returning id into ws;
              insert into public.workspace_members (workspace_id, user_id) values (ws, new.user_id);
              return new;
            end $$;
            create trigger on_profile after insert on public.profiles for each row execute function public.on_profile();
            create table public.docs (id uuid primary key default gen_random_uuid(),
              workspace_id uuid not null references public.workspaces (id) on delete cascade, title text not null);
            alter table public.docs enable row level security;
            create policy "members" on public.docs for all using (public.has_access(workspace_id)) with check (public.has_access(workspace_id));
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "docs", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
    }

    /// Notes whose insert trigger refuses a signed-in writer who is no member of the
    /// note's team, through a helper (`if not public.is_member(new.team_id) then raise`):
    /// the memberships were set up last, every persona's note was refused, and the notes
    /// were "cannot probe" (a team board: 62 of 183 probes; round thirty-nine). A table
    /// comes after the tables its triggers, or the helpers they call, read.
    @Test func aTableComesAfterWhatItsTriggersRead() throws {
        let draft = try DraftRealProjectShapesTests.draft("triggerreads", """
            create table public.teams (id uuid primary key default gen_random_uuid(), owner_id uuid not null references auth.users (id));
            create table public.team_members (team_id uuid not null references public.teams (id) on delete cascade,
              user_id uuid not null references auth.users (id) on delete cascade, primary key (team_id, user_id));
            create table public.a_notes (id uuid primary key default gen_random_uuid(),
              team_id uuid not null references public.teams (id) on delete cascade,
              created_by uuid not null references auth.users (id), body text not null);
            create function public.is_member(t uuid) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.team_members m where m.team_id = t and m.user_id = auth.uid()) $$;
            create function public.notes_guard() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              if auth.uid() is not null and not public.is_member(new.team_id) then
                raise insufficient_privilege using message = 'team access denied';
              end if;
              return new;
            end $$;
            create trigger notes_guard before insert on public.a_notes for each row execute function public.notes_guard();
            alter table public.teams enable row level security;
            alter table public.team_members enable row level security;
            alter table public.a_notes enable row level security;
            create policy "read" on public.teams for select to authenticated using (public.is_member(id));
            create policy "add" on public.teams for insert to authenticated with check (owner_id = auth.uid());
            create policy "read" on public.team_members for select to authenticated using (public.is_member(team_id));
            create policy "read" on public.a_notes for select to authenticated using (public.is_member(team_id));
            create policy "add" on public.a_notes for insert to authenticated with check (public.is_member(team_id) and created_by = auth.uid());
            create policy "change" on public.a_notes for update to authenticated using (public.is_member(team_id));
            create policy "remove" on public.a_notes for delete to authenticated using (public.is_member(team_id));
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "a_notes", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
    }

    /// Threaded comments: a reply stays on its parent's post (`foreign key (parent_id,
    /// post_id) references comments (id, post_id)`). The setup took `post_id` from the
    /// comment `parent_id` names, of which there was none: NULL, and every comment cell
    /// "cannot probe" (a community app; round thirty-nine). A first comment has no parent,
    /// and its post is its own key's.
    @Test func aFirstCommentOfAThreadNeedsNoParent() throws {
        let draft = try DraftRealProjectShapesTests.draft("threadedcomments", """
            create table public.posts (id uuid primary key default gen_random_uuid(),
              author_id uuid not null default auth.uid() references auth.users, title text not null);
            alter table public.posts enable row level security;
            create policy "read" on public.posts for select using (true);
            create policy "add" on public.posts for insert to authenticated with check (author_id = auth.uid());
            create table public.comments (id uuid primary key default gen_random_uuid(),
              post_id uuid not null references public.posts (id) on delete cascade, parent_id uuid,
              author_id uuid not null default auth.uid() references auth.users, body text not null,
              unique (id, post_id), foreign key (parent_id, post_id) references public.comments (id, post_id) on delete cascade);
            alter table public.comments enable row level security;
            create policy "read" on public.comments for select using (true);
            create policy "add" on public.comments for insert to authenticated with check (author_id = auth.uid());
            create policy "edit" on public.comments for update to authenticated using (author_id = auth.uid());
            create policy "remove" on public.comments for delete to authenticated using (author_id = auth.uid());
            """)
        let comments = try #require(draft.plan.relations.first { $0.name == "comments" })
        #expect(comments.access["ava"]?.insert == .own && comments.access["ava"]?.delete == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
    }
}
