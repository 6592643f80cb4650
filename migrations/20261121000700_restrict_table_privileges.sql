-- migrate:up
-- TRUNCATE is not subject to row level security, and REFERENCES and TRIGGER are
-- never needed by API clients; the default privileges granted all three to anon
-- and authenticated. Take them back (select/insert/update/delete stay, guarded by
-- RLS). service_role keeps everything.
revoke truncate, references, trigger
  on table public.colour, public.drivetrain, public.make, public.model,
           public.year, public.vehicle, public.patron, public.listing, public.saved
  from anon, authenticated;

-- migrate:down
grant truncate, references, trigger
  on table public.colour, public.drivetrain, public.make, public.model,
           public.year, public.vehicle, public.patron, public.listing, public.saved
  to anon, authenticated;
