-- migrate:up
-- The step the tutorials add last, and the one that matters: without it every
-- table in public is readable and writable by anyone holding the project's anon
-- key (Supabase grants new tables to anon and authenticated by default).
alter table public.todos enable row level security;

-- One policy for every operation: a row belongs to the user whose id it carries.
-- (select auth.uid()) is evaluated once per statement, not once per row.
create policy "Individuals manage their own todos"
  on public.todos
  for all
  to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);

-- migrate:down
drop policy "Individuals manage their own todos" on public.todos;
alter table public.todos disable row level security;
