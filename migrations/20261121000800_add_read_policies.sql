-- migrate:up
-- Signed-in users may read the catalogue: lookups, vehicles, listings and
-- patrons (a seller's contact details). anon has no policy, so sees nothing.
create policy "Signed-in users can read colours"
  on public.colour for select to authenticated using (true);
create policy "Signed-in users can read drivetrains"
  on public.drivetrain for select to authenticated using (true);
create policy "Signed-in users can read makes"
  on public.make for select to authenticated using (true);
create policy "Signed-in users can read models"
  on public.model for select to authenticated using (true);
create policy "Signed-in users can read years"
  on public.year for select to authenticated using (true);
create policy "Signed-in users can read vehicles"
  on public.vehicle for select to authenticated using (true);
create policy "Signed-in users can read listings"
  on public.listing for select to authenticated using (true);
create policy "Signed-in users can read patrons"
  on public.patron for select to authenticated using (true);

-- migrate:down
drop policy "Signed-in users can read patrons" on public.patron;
drop policy "Signed-in users can read listings" on public.listing;
drop policy "Signed-in users can read vehicles" on public.vehicle;
drop policy "Signed-in users can read years" on public.year;
drop policy "Signed-in users can read models" on public.model;
drop policy "Signed-in users can read makes" on public.make;
drop policy "Signed-in users can read drivetrains" on public.drivetrain;
drop policy "Signed-in users can read colours" on public.colour;
