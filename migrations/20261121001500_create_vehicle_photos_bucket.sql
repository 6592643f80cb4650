-- migrate:up
-- Vehicle photos: a public bucket, one folder per seller and one sub-folder per
-- listing: <seller's user id>/<listing id>/<file name>. Anyone may see the photos
-- of a listing on sale; a seller may upload, replace and delete photos only in
-- their own folder.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('vehicle-photos', 'vehicle-photos', true, 5242880,
        array['image/jpeg', 'image/png', 'image/webp']);

-- Whether a listing (given as the text of its id) is on sale. Runs as its owner,
-- because anonymous visitors may not read public.listing; kept out of the API's
-- schemas, so it is not an endpoint.
create schema private;
grant usage on schema private to anon, authenticated, service_role;

create function private.listing_is_active(listing_id text)
  returns boolean
  language sql
  stable
  security definer
  set search_path = ''
as $fn$
  select exists (select 1 from public.listing l where l.id::text = listing_id and l.is_active)
$fn$;
revoke execute on function private.listing_is_active(text) from public;
grant execute on function private.listing_is_active(text) to anon, authenticated, service_role;

create policy "Anyone can see photos of listings on sale"
  on storage.objects for select to anon, authenticated
  using (bucket_id = 'vehicle-photos'
         and private.listing_is_active((storage.foldername(name))[2]));

create policy "Sellers can see their own photos"
  on storage.objects for select to authenticated
  using (bucket_id = 'vehicle-photos'
         and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "Sellers can upload photos to their own folder"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'vehicle-photos'
              and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "Sellers can replace their own photos"
  on storage.objects for update to authenticated
  using (bucket_id = 'vehicle-photos'
         and (storage.foldername(name))[1] = (select auth.uid()::text))
  with check (bucket_id = 'vehicle-photos'
              and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "Sellers can delete their own photos"
  on storage.objects for delete to authenticated
  using (bucket_id = 'vehicle-photos'
         and (storage.foldername(name))[1] = (select auth.uid()::text));

-- migrate:down
drop policy "Sellers can delete their own photos" on storage.objects;
drop policy "Sellers can replace their own photos" on storage.objects;
drop policy "Sellers can upload photos to their own folder" on storage.objects;
drop policy "Sellers can see their own photos" on storage.objects;
drop policy "Anyone can see photos of listings on sale" on storage.objects;
drop function private.listing_is_active(text);
drop schema private;
-- The bucket goes only when empty (its photos' foreign key stops it otherwise).
-- Supabase refuses direct deletes from storage tables unless the transaction says
-- it is the storage server, as the storage server does for its own requests.
select set_config('storage.allow_delete_query', 'true', true);
delete from storage.buckets where id = 'vehicle-photos';
