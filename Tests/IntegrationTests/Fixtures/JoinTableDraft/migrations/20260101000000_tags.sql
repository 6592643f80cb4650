-- A join table whose name sorts before both of its sides: the drafted setup must give
-- each persona rows in "Notes" and tags before the links between them.
create table public.a_note_tags (
  note_id bigint not null,
  tag_id bigint not null,
  user_id uuid not null default auth.uid() references auth.users (id),
  primary key (note_id, tag_id));
create table public."Notes" (
  id bigint generated always as identity primary key,
  user_id uuid not null default auth.uid() references auth.users (id),
  body text not null);
create table public.tags (
  id bigint generated always as identity primary key,
  user_id uuid not null default auth.uid() references auth.users (id),
  label text not null);
alter table public.a_note_tags add foreign key (note_id) references public."Notes" (id);
alter table public.a_note_tags add foreign key (tag_id) references public.tags (id);
alter table public.a_note_tags enable row level security;
alter table public."Notes" enable row level security;
alter table public.tags enable row level security;
grant select, insert, update, delete on public.a_note_tags, public."Notes", public.tags to authenticated;
create policy own on public.a_note_tags for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy own on public."Notes" for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy own on public.tags for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
