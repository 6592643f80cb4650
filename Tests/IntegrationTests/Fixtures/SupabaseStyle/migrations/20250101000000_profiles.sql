-- One profile per account, made when someone signs up.
create table public.profiles (
  id uuid not null references auth.users on delete cascade primary key,
  username text unique,
  avatar_url text,
  updated_at timestamptz,
  constraint username_length check (char_length(username) >= 3)
);

alter table public.profiles enable row level security;

create policy "Profiles are visible to everyone." on public.profiles
  for select using (true);
create policy "People insert their own profile." on public.profiles
  for insert with check ((select auth.uid()) = id);
create policy "People update their own profile." on public.profiles
  for update using ((select auth.uid()) = id);

create function public.handle_new_profile()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  insert into public.profiles (id, avatar_url)
  values (new.id, new.raw_user_meta_data ->> 'avatar_url');
  return new;
end;
$$;

create trigger on_auth_user_created_profile
  after insert on auth.users
  for each row execute procedure public.handle_new_profile();
