-- Team invitations: ids from uuid-ossp, tokens from pgcrypto (found through the
-- search path, as Supabase projects write it).
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;

create table public.invites (
  id uuid primary key default extensions.uuid_generate_v4(),
  token text not null default encode(gen_random_bytes(16), 'hex'),
  email text not null,
  created_by uuid not null references auth.users (id) default auth.uid(),
  created_at timestamptz not null default now()
);

alter table public.invites enable row level security;

create policy "Inviters see their invites." on public.invites
  for select to authenticated using (created_by = (select auth.uid()));
create policy "Signed-in people invite." on public.invites
  for insert to authenticated with check (created_by = (select auth.uid()));
