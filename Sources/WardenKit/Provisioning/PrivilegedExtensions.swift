/// The extensions Supabase lets its non-superuser `postgres` create, alter and drop:
/// supautils' `privileged_extensions` list, which supautils runs as the superuser
/// `supabase_admin` on `postgres`'s behalf.
///
/// Source: `supabase/postgres`, `ansible/files/postgresql_config/conf.d/supautils.conf`
/// at commit 6124db1 (after pull request #1484, which added hypopg, index_advisor,
/// pg_tle, vector, ...; it adds `pg_buffercache` and leaves `plpgsql` out "because
/// protected"; `pgmq` is left out "because doesn't require superuser"); see
/// docs/supabase-twin.md, "Extensions". The local twin
/// gets the same effect by marking these extensions `trusted` in its private
/// installation tree (`PrivateInstallation`).
public enum PrivilegedExtensions {
    /// supautils' `privileged_extensions`, in its order.
    public static let names: [String] = [
        "address_standardizer", "address_standardizer_data_us", "autoinc", "bloom", "btree_gin", "btree_gist",
        "citext", "cube", "dblink", "dict_int", "dict_xsyn", "earthdistance", "fuzzystrmatch", "hstore", "http",
        "hypopg", "index_advisor", "insert_username", "intarray", "isn", "ltree", "moddatetime", "orioledb",
        "pg_buffercache", "pg_cron", "pg_graphql", "pg_hashids", "pg_jsonschema", "pg_net", "pg_prewarm", "pg_repack",
        "pg_stat_monitor", "pg_stat_statements", "pg_tle", "pg_trgm", "pg_walinspect", "pgaudit", "pgcrypto", "pgjwt",
        "pgroonga", "pgroonga_database", "pgrouting", "pgrowlocks", "pgsodium", "pgstattuple", "pgtap", "plcoffee",
        "pljava", "plls", "plpgsql_check", "plv8", "postgis", "postgis_raster", "postgis_sfcgal",
        "postgis_tiger_geocoder", "postgis_topology", "postgres_fdw", "refint", "rum", "seg", "sslinfo",
        "supabase_vault", "supautils", "tablefunc", "tcn", "timescaledb", "tsm_system_rows", "tsm_system_time",
        "unaccent", "uuid-ossp", "vector", "wrappers",
    ]
}
