-- A schema with the shapes `plan draft` must state and `pgwarden test` must accept:
-- functions with named, quoted, defaulted, variadic and OUT parameters and overloads,
-- mixed-case and quoted names, views on views, a table without a primary key, enums,
-- domains and a partitioned table.

create type public.mood as enum ('calm', 'busy');
create domain public.short_text as text check (length(value) <= 40);

create table public."Trip Log" (
  id bigint generated always as identity primary key,
  "Owner" uuid not null default auth.uid() references auth.users (id),
  "Title" public.short_text not null,
  feeling public.mood not null default 'calm'
);
alter table public."Trip Log" enable row level security;
create policy "owners read" on public."Trip Log" for select to authenticated using ("Owner" = auth.uid());
create policy "owners write" on public."Trip Log" for insert to authenticated with check ("Owner" = auth.uid());

create table public.readings (
  taken_at timestamptz not null,
  value numeric not null
);
alter table public.readings enable row level security;
create policy "signed in read" on public.readings for select to authenticated using (true);

create table public.events (
  id bigint not null,
  happened date not null,
  label text
) partition by range (happened);
create table public.events_2026 partition of public.events for values from ('2026-01-01') to ('2027-01-01');
alter table public.events enable row level security;
alter table public.events_2026 enable row level security;
create policy "signed in read" on public.events for select to authenticated using (true);

create view public.trip_titles with (security_invoker = true) as
  select id, "Owner", "Title" from public."Trip Log";
create view public."Calm Trips" with (security_invoker = true) as
  select id, "Owner", "Title" from public.trip_titles where "Title" is not null;

create function public.add(a int, b int) returns int language sql immutable as 'select a + b';
create function public.add(a numeric, b numeric default 0) returns numeric language sql immutable as 'select a + b';
create function public."Shout"("Text" text) returns text language sql immutable as 'select upper($1)';
create function public.total(variadic amounts int[]) returns int language sql immutable
  as 'select coalesce(sum(x), 0)::int from unnest(amounts) x';
create function public.split_name(full_name text, out first_name text, out last_name text)
  language sql immutable as 'select split_part(full_name, '' '', 1), split_part(full_name, '' '', 2)';
create function public.feelings(wanted public.mood[] default '{calm}') returns setof public.mood
  language sql stable as 'select unnest(wanted)';
create function public.clip(t public.short_text) returns public.short_text language sql immutable as 'select t';
revoke execute on function public.clip(public.short_text) from public, anon;
