-- migrate:up
-- A signed-in user may create their own patron row, with their own email, and
-- no one else's. (Normally the sign-up trigger creates it already.)
create policy "Users create their own patron"
  on public.patron for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and email_address = (select auth.email())
  );

-- migrate:down
drop policy "Users create their own patron" on public.patron;
