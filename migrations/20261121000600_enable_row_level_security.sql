-- migrate:up
-- Every table is granted to anon and authenticated by Supabase's default
-- privileges; row level security is what limits them. With RLS on and no policy,
-- a role sees no rows and can change none (service_role bypasses RLS).
alter table public.colour enable row level security;
alter table public.drivetrain enable row level security;
alter table public.make enable row level security;
alter table public.model enable row level security;
alter table public.year enable row level security;
alter table public.vehicle enable row level security;
alter table public.patron enable row level security;
alter table public.listing enable row level security;
alter table public.saved enable row level security;

-- migrate:down
alter table public.saved disable row level security;
alter table public.listing disable row level security;
alter table public.patron disable row level security;
alter table public.vehicle disable row level security;
alter table public.year disable row level security;
alter table public.model disable row level security;
alter table public.make disable row level security;
alter table public.drivetrain disable row level security;
alter table public.colour disable row level security;
