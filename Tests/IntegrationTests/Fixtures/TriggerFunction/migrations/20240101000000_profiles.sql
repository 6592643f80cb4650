-- A sign-up trigger's function (security definer, EXECUTE left to PUBLIC as most
-- projects leave it) and an RPC a client may call.
create table public.profiles (
  id uuid primary key references auth.users on delete cascade,
  handle text
);
alter table public.profiles enable row level security;
create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid());

create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.profiles (id, handle) values (new.id, new.email);
  return new;
end
$$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create function public.profile_count() returns bigint
language sql security definer set search_path = ''
as $$ select count(*) from public.profiles $$;
