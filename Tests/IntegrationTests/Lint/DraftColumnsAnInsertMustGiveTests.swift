import Foundation
import Testing
import WardenKit
import TestSupport

/// Columns an insert leaves to their defaults, where the default is what a real
/// client's insert changes: a flag the insert policy asks to be true, a foreign key
/// whose default is a random key (round thirty-eight: a workout app and a chat app).
@Suite struct DraftColumnsAnInsertMustGiveTests {
    static func items(_ insertCheck: String) -> String {
        """
        create table public.items (id uuid primary key default gen_random_uuid(), name text not null,
          is_custom boolean not null default false, created_by uuid references auth.users (id));
        alter table public.items enable row level security;
        create policy "read" on public.items for select using (true);
        create policy "add custom" on public.items for insert to authenticated with check (\(insertCheck));
        create policy "change custom" on public.items for update to authenticated using (created_by = auth.uid() and is_custom);
        create policy "drop custom" on public.items for delete to authenticated using (created_by = auth.uid() and is_custom = true);
        """
    }

    /// `created_by = auth.uid() and is_custom = true`, false by default: the personas'
    /// inserts and setup rows were refused, and their own custom entries drafted "none".
    @Test func aFlagTheInsertPolicyAsksForIsGiven() throws {
        let draft = try DraftRealProjectShapesTests.draft("flagasked", Self.items("created_by = auth.uid() and is_custom = true"))
        let items = try #require(draft.plan.relations.first { $0.name == "items" })
        #expect(items.sample.first { $0.column == "is_custom" }?.expression == "true", "\(draft.yaml)")
        for persona in ["ava", "ben"] {
            #expect(items.access[persona]?.insert == .own, "\(persona): \(draft.yaml)")
            #expect(items.access[persona]?.update == .own, "\(persona): \(draft.yaml)")
            #expect(items.access[persona]?.delete == .own, "\(persona): \(draft.yaml)")
        }
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Under an OR the flag is one branch of several: the sample leaves it alone.
    @Test func aFlagOneBranchOfAnOrAsksForIsLeftAlone() throws {
        let draft = try DraftRealProjectShapesTests.draft("flagbranch", Self.items("created_by = auth.uid() or is_custom"))
        let items = try #require(draft.plan.relations.first { $0.name == "items" })
        #expect(!items.sample.contains { $0.column == "is_custom" }, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// `muted_id uuid default gen_random_uuid() references people`: the default names no
    /// person, every setup row broke the key, and every cell was "cannot probe".
    @Test func aKeyWhoseDefaultIsRandomIsGiven() throws {
        let draft = try DraftRealProjectShapesTests.draft("randomkey", """
            create table public.people (id uuid primary key references auth.users (id), name text);
            alter table public.people enable row level security;
            create policy "read" on public.people for select to authenticated using (true);
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.people (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create table public.mutes (user_id uuid not null default gen_random_uuid() references public.people (id),
              muted_id uuid not null default gen_random_uuid() references public.people (id), primary key (user_id, muted_id));
            alter table public.mutes enable row level security;
            create policy "own" on public.mutes for select to authenticated using (user_id = auth.uid());
            create policy "add" on public.mutes for insert to authenticated with check (user_id = auth.uid());
            create policy "drop" on public.mutes for delete to authenticated using (user_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "mutes", ava: Access(select: .own, insert: .own, update: .nothing, delete: .own))
    }

    /// A one-to-one child sharing its parent's key through a sequence (`designs.id serial
    /// primary key references sketches (id)`), beside seeded designs with their sketches'
    /// ids: the sequence's 1 and 2 were seeded rows', `on conflict do nothing` dropped the
    /// personas' rows, and ben could not be shown to insert his own (a schematics site;
    /// round thirty-nine). A foreign key whose default is a sequence is given its row.
    @Test func aKeyWhoseDefaultIsASequenceIsGiven() throws {
        let draft = try DraftRealProjectShapesTests.draft("sequencekey", """
            create table public.sketches (id serial primary key, user_id uuid not null references auth.users,
              title text not null default 'untitled');
            alter table public.sketches enable row level security;
            create policy "read" on public.sketches for select using (true);
            create policy "add" on public.sketches for insert to authenticated with check (user_id = auth.uid());
            create table public.designs (id serial primary key references public.sketches (id),
              user_id uuid not null references auth.users, note text not null default '');
            alter table public.designs enable row level security;
            create policy "read" on public.designs for select using (true);
            create policy "add" on public.designs for insert to authenticated
              with check (user_id = auth.uid() and auth.uid() = (select s.user_id from public.sketches s where s.id = designs.id));
            create policy "edit" on public.designs for update to authenticated using (user_id = auth.uid());
            create policy "remove" on public.designs for delete to authenticated using (user_id = auth.uid());
            insert into auth.users (id, email) values ('00000000-0000-0000-0000-00000000000a', 'seed@example.com');
            insert into public.sketches (user_id) select '00000000-0000-0000-0000-00000000000a' from generate_series(1, 3);
            insert into public.designs (id, user_id) select id, user_id from public.sketches;
            """)
        let designs = try #require(draft.plan.relations.first { $0.name == "designs" })
        #expect(designs.access["ben"]?.insert == .own && designs.access["ben"]?.delete == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
    }

    /// A country's code `text`, referenced by an address's `country_code varchar(2)`: the
    /// setup's 'Draft code 1' did not fit the reference (22001), and every address cell,
    /// the service role's too, was "cannot probe" (an HR app; round thirty-nine). A text
    /// key takes the length of the shortest column referencing it.
    @Test func aTextKeyFitsTheColumnsReferencingIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("shortkey", """
            create table public.countries (code text primary key, name text not null);
            create table public.addresses (id bigint generated always as identity primary key,
              user_id uuid not null default auth.uid() references auth.users (id),
              country_code varchar(2) not null references public.countries (code), line1 text not null);
            alter table public.countries enable row level security;
            alter table public.addresses enable row level security;
            create policy "read" on public.countries for select using (true);
            create policy "own" on public.addresses for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "addresses", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
    }

    /// A purchase whose trigger takes stock from its item and raises without (`update
    /// items set stock = stock - new.quantity where ... and stock >= new.quantity; if not
    /// found then raise`), items' stock 0 by default: every setup purchase was refused
    /// and every purchase cell was "cannot probe" (a shop; round thirty-eight). The setup
    /// gives the items plenty of stock.
    @Test func aNumberAChildsTriggerSpendsIsPlentyInTheSetup() throws {
        let draft = try DraftRealProjectShapesTests.draft("childspends", """
            create table public.items (id uuid primary key default gen_random_uuid(),
              seller_id uuid not null references auth.users (id), stock integer not null default 0 check (stock >= 0));
            alter table public.items enable row level security;
            create policy "read" on public.items for select using (true);
            create policy "sell" on public.items for insert to authenticated with check (seller_id = auth.uid());
            create table public.purchases (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), item_id uuid not null references public.items (id),
              quantity integer not null check (quantity > 0));
            alter table public.purchases enable row level security;
            create policy "buy" on public.purchases for insert with check (user_id = auth.uid());
            create policy "own" on public.purchases for select using (user_id = auth.uid());
            create function public.take_stock() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              update public.items set stock = stock - new.quantity where id = new.item_id and stock >= new.quantity;
              if not found then raise exception 'Insufficient stock available'; end if;
              return new;
            end $$;
            create trigger take_stock before insert on public.purchases for each row execute function public.take_stock();
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "purchases", ava: Access(select: .own, insert: .own, update: .nothing, delete: .nothing))
    }
}
