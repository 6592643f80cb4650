-- A table open to everyone whose only NOT NULL column is an identity that is
-- GENERATED ALWAYS: the draft's sample must not name it (an insert giving it a value
-- fails with 428C9, which hid the open table's dangers).
create table public.guestbook (id bigint generated always as identity primary key, note text);
alter table public.guestbook enable row level security;
create policy anyone on public.guestbook for all using (true) with check (true);
