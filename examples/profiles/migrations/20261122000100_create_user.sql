-- migrate:up
-- The profile table of the social-login starters (Kakao, Apple, Google sign-in):
-- one row per account, made by handle_new_user() when the account is created.
-- Users read and edit their own row; nobody inserts or deletes rows directly.
create table public."user" (
  id         uuid primary key references auth.users (id) on delete cascade,
  email      text,
  name       text,
  created_at timestamptz not null default now()
);
comment on table public."user" is 'One profile per account, created by handle_new_user().';

alter table public."user" enable row level security;

create policy "Users can view their own profile"
  on public."user" for select
  to authenticated
  using ((select auth.uid()) = id);

create policy "Users can update their own profile"
  on public."user" for update
  to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

-- migrate:down
drop table public."user";
