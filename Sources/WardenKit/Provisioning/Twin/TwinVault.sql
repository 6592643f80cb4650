-- pgwarden twin, step 7: a stand-in for Supabase Vault (the supabase_vault extension,
-- installed on every new project). Same API as supabase/vault 0.3: vault.secrets,
-- the vault.decrypted_secrets view, vault.create_secret() and vault.update_secret().
-- THE LOCAL COPY DOES NOT ENCRYPT: `secret` holds the text as given, and
-- `decrypted_secret` repeats it. Grants as Supabase's after-create script for the
-- extension (PG ansible/files/postgresql_extension_custom_scripts/supabase_vault/
-- after-create.sql): postgres has USAGE on the schema, SELECT and DELETE on both
-- relations and EXECUTE on the two functions, all with grant option; service_role
-- the same without grant option; anon and authenticated nothing. Secrets are written
-- through the two functions, which run as their owner, supabase_admin.

do $twin$
begin
  if to_regnamespace('vault') is null then
    create schema vault authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'vault');
  end if;
  if to_regclass('vault.secrets') is null then
    create table vault.secrets (
      id uuid primary key default gen_random_uuid(),
      name text,
      description text not null default '',
      secret text not null,
      key_id uuid,
      nonce bytea,
      created_at timestamptz not null default current_timestamp,
      updated_at timestamptz not null default current_timestamp);
    create unique index secrets_name_idx on vault.secrets (name) where name is not null;
    comment on table vault.secrets is
      'pgwarden twin: stand-in for Supabase Vault; the local copy does not encrypt secrets.';
    alter table vault.secrets owner to supabase_admin;
    revoke all on vault.secrets from public;
    perform pg_temp.twin_note('table', 'vault.secrets');
  end if;
  if to_regclass('vault.decrypted_secrets') is null then
    create view vault.decrypted_secrets as
      select s.id, s.name, s.description, s.secret, s.secret as decrypted_secret, s.key_id, s.nonce,
             s.created_at, s.updated_at
      from vault.secrets s;
    alter view vault.decrypted_secrets owner to supabase_admin;
    revoke all on vault.decrypted_secrets from public;
    perform pg_temp.twin_note('view', 'vault.decrypted_secrets');
  end if;
  if to_regprocedure('vault.create_secret(text, text, text, uuid)') is null then
    create function vault.create_secret(new_secret text, new_name text default null,
                                        new_description text default '', new_key_id uuid default null)
      returns uuid language sql volatile security definer set search_path = ''
    as $fn$
      insert into vault.secrets (secret, name, description, key_id)
      values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
      returning id
    $fn$;
    alter function vault.create_secret(text, text, text, uuid) owner to supabase_admin;
    revoke all on function vault.create_secret(text, text, text, uuid) from public;
    perform pg_temp.twin_note('function', 'vault.create_secret(text, text, text, uuid)');
  end if;
  if to_regprocedure('vault.update_secret(uuid, text, text, text, uuid)') is null then
    create function vault.update_secret(secret_id uuid, new_secret text default null, new_name text default null,
                                        new_description text default null, new_key_id uuid default null)
      returns void language sql volatile security definer set search_path = ''
    as $fn$
      update vault.secrets s
      set secret = coalesce(new_secret, s.secret), name = coalesce(new_name, s.name),
          description = coalesce(new_description, s.description), key_id = coalesce(new_key_id, s.key_id),
          updated_at = now()
      where s.id = secret_id
    $fn$;
    alter function vault.update_secret(uuid, text, text, text, uuid) owner to supabase_admin;
    revoke all on function vault.update_secret(uuid, text, text, text, uuid) from public;
    perform pg_temp.twin_note('function', 'vault.update_secret(uuid, text, text, text, uuid)');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'vault', 'usage', grantee, grantee = 'postgres')
from unnest(array['postgres', 'service_role']) as grantee
where pg_temp.twin_is_new('vault');
select pg_temp.twin_grant('table', relation, 'select, delete', grantee, grantee = 'postgres')
from unnest(array['vault.secrets', 'vault.decrypted_secrets']) as relation,
     unnest(array['postgres', 'service_role']) as grantee
where pg_temp.twin_is_new(relation);
select pg_temp.twin_grant('function', signature, 'execute', grantee, grantee = 'postgres')
from unnest(array['vault.create_secret(text, text, text, uuid)',
                  'vault.update_secret(uuid, text, text, text, uuid)']) as signature,
     unnest(array['postgres', 'service_role']) as grantee
where pg_temp.twin_is_new(signature);

-- The extension itself, registered on the schema bootstrap made, when this server has
-- pgwarden's registration (StandIns/StandInSupabaseVault.sql): on a new project
-- supabase_vault is installed already (PG migrations/db/migrations/
-- 20221207154255_create_pgsodium_and_vault.sql: `create extension if not exists
-- supabase_vault`), so a migration's `create extension if not exists supabase_vault`
-- does nothing there. Unregistered, it installed the registration into `public`, and
-- lint said `extension_in_public supabase_vault` of a project Supabase would not.
do $twin$
begin
  if not exists (select 1 from pg_catalog.pg_extension where extname = 'supabase_vault')
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'supabase_vault') then
    create extension supabase_vault with schema vault;
    perform pg_temp.twin_note('extension', 'supabase_vault');
  end if;
end
$twin$;
