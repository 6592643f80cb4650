import Testing
import WardenKit

/// A like whose insert trigger makes or activates a match (`matches (user1_id,
/// user2_id, active)`), and messages read through active matches: a trigger updating a
/// column other tables' rules read was taken for one making its user privileged, so no
/// persona got a like, 18 cells were unprobed, and the draft failed them on its own run
/// (a dating app, round thirty-four). A table naming two users is about a pair.
@Suite struct DraftPairRowTriggerTests {
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
        let likes = try #require(draft.plan.relations.first { $0.name == "likes" })
        #expect(likes.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .own), "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
