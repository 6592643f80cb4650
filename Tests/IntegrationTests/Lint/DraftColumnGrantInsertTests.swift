import Foundation
import Testing
import WardenKit
import TestSupport

/// A table signed-in users insert into through a column grant (`grant insert (id,
/// user_b) on chats`, its `user_a` left to `default auth.uid()` so that no one forges
/// it): the draft read "no signed-in user may add one", made the table a privilege
/// someone else grants, gave its one row to the user who is no persona (refused by
/// `check (user_a <> user_b)`), and no persona was in any chat: every cell of the chat
/// and its lines was "cannot probe" or vacuous (a chat app, round thirty-eight).
@Suite struct DraftColumnGrantInsertTests {
    @Test func aUsersChatMadeThroughAColumnGrantIsProbed() throws {
        let draft = try DraftRealProjectShapesTests.draft("columngrantinsert", """
            create table public.chats (id uuid primary key default gen_random_uuid(),
              user_a uuid default auth.uid() references auth.users (id), user_b uuid references auth.users (id),
              check (user_a <> user_b));
            create table public.lines (id uuid primary key default gen_random_uuid(),
              chat_id uuid not null references public.chats (id),
              author uuid not null default auth.uid() references auth.users (id), body text not null);
            create function public.in_chat(c uuid) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.chats where id = c and auth.uid() in (user_a, user_b)) $$;
            alter table public.chats enable row level security;
            alter table public.lines enable row level security;
            create policy "read" on public.chats for select to authenticated using (auth.uid() in (user_a, user_b));
            create policy "open" on public.chats for insert to authenticated with check (user_b is not null);
            revoke insert on public.chats from authenticated;
            grant insert (id, user_b) on public.chats to authenticated;
            create policy "read lines" on public.lines for select to authenticated using (public.in_chat(chat_id));
            create policy "write lines" on public.lines for insert to authenticated with check (public.in_chat(chat_id));
            """)
        #expect(!draft.yaml.contains("privilege someone else grants"), "\(draft.yaml)")
        let lines = try #require(draft.plan.relations.first { $0.name == "lines" })
        #expect(lines.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(lines.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Items on private lists, signed-in users granted only the columns they send
    /// (`grant insert (list_id, body)`, the author left to `default auth.uid()`), the
    /// insert policy checking the author alone: the check of writing into another user's
    /// list named the author, the grant refused it (42501), and "refused" hid that any
    /// user posts into any list whose id they have (a wish-list app; round forty). The
    /// check leaves such a column to its default, as a client's POST does.
    @Test func theJoinCheckLeavesAColumnOutsideTheGrantToItsDefault() throws {
        let draft = try DraftRealProjectShapesTests.draft("columngrantjoin", """
            create table public.lists (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id));
            create table public.items (id uuid primary key default gen_random_uuid(),
              list_id uuid not null references public.lists (id),
              author_id uuid not null default auth.uid() references auth.users (id), body text not null default '');
            alter table public.lists enable row level security;
            alter table public.items enable row level security;
            revoke all on public.lists, public.items from anon, authenticated;
            grant select, insert (id) on public.lists to authenticated;
            grant select, insert (list_id, body) on public.items to authenticated;
            create policy lists_own on public.lists for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create policy items_read on public.items for select to authenticated using (author_id = auth.uid());
            create policy items_add on public.items for insert to authenticated with check (author_id = auth.uid());
            """)
        let check = try #require(draft.plan.checks.first { $0.name == "ava writes a public.items row into a public.lists row of ben's" },
                                 "\(draft.yaml)")
        #expect(!check.sql.contains("author_id"), "\(check.sql)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.items · ava") && $0.contains("write public.items rows into other users' public.lists rows") },
                "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
