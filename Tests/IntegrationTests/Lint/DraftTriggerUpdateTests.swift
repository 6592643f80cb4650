import Testing
import WardenKit

/// Rows whose insert trigger updates a table other tables' rules read, without making
/// their user privileged: taken for rows that do (a `store_admins` row setting its
/// user's role), they were given to no persona, and their cells went unprobed (round
/// thirty-four).
@Suite struct DraftTriggerUpdateTests {
    /// A like whose insert trigger makes or activates a match (`matches (user1_id,
    /// user2_id, active)`), and messages read through active matches: no persona got a
    /// like, 18 cells were unprobed, and the draft failed them on its own run (a dating
    /// app). A table naming two users is about a pair.
    @Test func aLikeThatActivatesAMatchIsGivenToThePersonas() throws {
        let draft = try DraftRealProjectShapesTests.draft("likesmatches", """
            create table public.likes (
              user_id uuid not null references auth.users (id), target_id uuid not null references auth.users (id),
              primary key (user_id, target_id), check (user_id <> target_id));
            create table public.matches (
              id uuid primary key default gen_random_uuid(), user1_id uuid not null references auth.users (id),
              user2_id uuid not null references auth.users (id), active boolean not null default true);
            create table public.messages (
              id uuid primary key default gen_random_uuid(), match_id uuid not null references public.matches (id),
              user_id uuid not null references auth.users (id), body text);
            create function public.on_like() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              if exists (select 1 from likes where user_id = new.target_id and target_id = new.user_id) then
                update matches set active = true where user1_id = new.target_id and user2_id = new.user_id;
                if not found then insert into matches (user1_id, user2_id) values (new.user_id, new.target_id); end if;
              end if;
              return new;
            end $$;
            create trigger likes_match after insert on public.likes for each row execute function public.on_like();
            alter table public.likes enable row level security;
            alter table public.matches enable row level security;
            alter table public.messages enable row level security;
            create policy l_sel on public.likes for select using (auth.uid() = user_id);
            create policy l_ins on public.likes for insert with check (auth.uid() = user_id);
            create policy l_del on public.likes for delete using (auth.uid() = user_id);
            create policy m_sel on public.matches for select using (auth.uid() in (user1_id, user2_id));
            create policy msg_sel on public.messages for select using (
              exists (select 1 from public.matches m where m.id = match_id and m.active and auth.uid() in (m.user1_id, m.user2_id)));
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "likes", ava: Access(select: .own, insert: .own, update: .nothing, delete: .own))
    }

    /// A usage whose trigger draws on its stock (`"remaining" = "remaining" - new.qty`,
    /// and a flag derived from it): a count assigned from itself is no privilege. The
    /// usages were given to no persona, and "ava moves her usage into ben's stock", which
    /// lowers ben's count through the definer trigger, went unseen (a habit tracker).
    @Test func aUsageThatDrawsOnAStockIsGivenToThePersonas() throws {
        let draft = try DraftRealProjectShapesTests.draft("usagesstock", """
            create table public.stocks (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users,
              remaining int not null default 10, is_empty boolean not null default false);
            alter table public.stocks enable row level security;
            create policy stocks_own on public.stocks for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create table public.usages (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users,
              stock_id uuid not null references public.stocks, qty int not null default 1);
            alter table public.usages enable row level security;
            create policy usages_select on public.usages for select using (user_id = auth.uid());
            create policy usages_insert on public.usages for insert with check (
              user_id = auth.uid() and exists (select 1 from public.stocks s where s.id = stock_id and s.user_id = auth.uid()));
            create policy usages_update on public.usages for update using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.apply_usage() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              update "public"."stocks" set "remaining" = "remaining" - new.qty, "is_empty" = ("remaining" - new.qty) <= 0
                where id = new.stock_id;
              return new;
            end $$;
            create trigger apply_usage after insert or update on public.usages for each row execute function public.apply_usage();
            """)
        #expect(!draft.yaml.contains("the draft gives the personas no row here"))
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava moves a public.usages row of ava's into a public.stocks row of ben's",
            danger: "public.usages · ava: a signed-in user may move their public.usages rows into other users' public.stocks rows")
    }

    /// A payment whose trigger copies its status into its booking: the payment's policy
    /// reads its booking's renter (`exists (select 1 from bookings b where b.id =
    /// booking_id and b.renter_id = auth.uid())`), which made `bookings` a table that
    /// says who a user is, its `payment_status` a role, and the trigger a promotion:
    /// payments were given to no persona and 18 of 48 cells were "cannot probe" (a gear
    /// rental app, round thirty-six). A child reading its parent's owner is no role.
    @Test func aStatusCopiedIntoTheParentBookingIsNoPromotion() throws {
        let draft = try DraftRealProjectShapesTests.draft("paymentsync", """
            create table public.bookings (id uuid primary key default gen_random_uuid(),
              renter_id uuid not null references auth.users (id),
              payment_status text not null default 'pending' check (payment_status in ('pending', 'completed', 'refunded')));
            alter table public.bookings enable row level security;
            create policy bookings_read on public.bookings for select using (renter_id = auth.uid());
            create policy bookings_ins on public.bookings for insert with check (renter_id = auth.uid());
            create table public.payments (id uuid primary key default gen_random_uuid(),
              booking_id uuid not null references public.bookings (id), status text not null default 'pending');
            alter table public.payments enable row level security;
            create policy payments_read on public.payments for select
              using (exists (select 1 from public.bookings b where b.id = booking_id and b.renter_id = auth.uid()));
            create function public.sync_payment_status() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              update public.bookings set payment_status = new.status where id = new.booking_id;
              return new;
            end $$;
            create trigger payments_sync after insert or update on public.payments for each row execute function public.sync_payment_status();
            """)
        #expect(!draft.yaml.contains("the draft gives the personas no row here"), "\(draft.yaml)")
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "payments", ava: Access(select: .own, insert: .nothing, update: .nothing, delete: .nothing))
    }
}
