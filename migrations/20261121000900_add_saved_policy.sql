-- migrate:up
-- A signed-in user reads, adds, changes and removes only their own saved rows.
-- The same rule in WITH CHECK stops a row being added for, or moved to,
-- someone else. (select auth.uid()) is evaluated once per statement.
create policy "Users manage their own saved listings"
  on public.saved for all to authenticated
  using (
    patron_id in (
      select p.id from public.patron p where p.user_id = (select auth.uid())
    )
  )
  with check (
    patron_id in (
      select p.id from public.patron p where p.user_id = (select auth.uid())
    )
  );

-- migrate:down
drop policy "Users manage their own saved listings" on public.saved;
