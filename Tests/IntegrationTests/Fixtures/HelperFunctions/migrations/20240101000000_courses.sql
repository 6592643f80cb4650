-- A security definer helper that policies call (is_owner(uuid)-style): anon may
-- execute it, as PostgreSQL's default grant to PUBLIC allows, and it answers false.
create table public.courses (id uuid primary key default gen_random_uuid(), user_id uuid default auth.uid());
alter table public.courses enable row level security;
create function public.is_course_owner(p uuid) returns boolean language sql stable security definer set search_path = ''
as $$ select exists (select 1 from public.courses c where c.id = p and c.user_id = (select auth.uid())) $$;
create policy "own" on public.courses for select to authenticated using (public.is_course_owner(id));

-- A table whose key is GENERATED ALWAYS and whose update policy lets every row through.
create table public.items (id bigint generated always as identity primary key, name text);
alter table public.items enable row level security;
create policy "read" on public.items for select to authenticated using (true);
create policy "anyone edits" on public.items for update to authenticated using (true) with check (true);
insert into public.items (name) values ('a'), ('b');
