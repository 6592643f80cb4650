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
}
