-- A 12-digit version: numerically the smallest here, but by file name (the order
-- the Supabase CLI applies) it comes after 20230201000000.
alter table public.golfer add column invalid boolean not null default false;
