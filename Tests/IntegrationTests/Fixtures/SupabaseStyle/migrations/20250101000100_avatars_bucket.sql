-- Avatars: a public bucket; people manage files in the folder named after them.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 1048576, array['image/png', 'image/jpeg']);

create policy "Avatar images are publicly accessible." on storage.objects
  for select using (bucket_id = 'avatars');

create policy "People upload avatars into their own folder." on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'avatars'
    and (storage.foldername(name))[1] = (select auth.uid()::text)
    and storage.extension(name) in ('png', 'jpg')
  );

create policy "People replace their own avatars." on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and owner_id = (select auth.uid()::text));

create policy "People delete their own avatars." on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and storage.filename(name) like 'avatar%' and owner_id = (select auth.uid()::text));
