-- pgwarden's local stand-in for the supabase_vault extension. The Vault's objects
-- (vault.secrets, vault.decrypted_secrets, vault.create_secret, vault.update_secret)
-- are made by the twin's bootstrap (Twin/TwinVault.sql), as on a new project where
-- the extension is installed already; this registration only lets a migration or a
-- schema dump's `create extension if not exists supabase_vault with schema vault`
-- succeed. The local copy does not encrypt.
do $vault$
begin
  if to_regclass('vault.secrets') is null then
    raise exception 'supabase_vault is a local stand-in on the pgwarden twin: its objects come from pgwarden bootstrap, and this database has no vault.secrets'
      using errcode = 'feature_not_supported', hint = 'run pgwarden bootstrap on this database first';
  end if;
end
$vault$;
