import WardenPostgres

/// What reads `session_user`, which the run cannot make what PostgREST's requests see.
///
/// PostgREST logs in as `authenticator` and switches role for each request, so a
/// request's `session_user` is `authenticator`. pgwarden's probes switch role on the
/// run's own connection (`postgres` on Supabase and the twin), so there `session_user`
/// is that login: only a superuser login could change it (`SET SESSION AUTHORIZATION`),
/// and the run is not one. A policy or function that branches on it (the widely copied
/// custom-claims helper `is_claims_admin()` returns true unless `session_user` is
/// `authenticator`) may then be proved on its other branch; the run names each such
/// policy on an exposed table and each such function of the project's own.
enum SessionUserReaders {
    /// The query: one line per policy or function whose text names `session_user`, one
    /// a row (the run reads it with its other notes in one round trip).
    static func query(schemas: [String]) -> SQL {
        """
            select format('policy %I on %I.%I', p.polname, n.nspname, c.relname)
            from pg_catalog.pg_policy p join pg_catalog.pg_class c on c.oid = p.polrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(array: schemas)::text[])
              and concat(pg_catalog.pg_get_expr(p.polqual, p.polrelid), ' ',
                         pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid)) ~* '\\msession_user\\M'
            union all
            select format('function %s', p.oid::pg_catalog.regprocedure)
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
            -- pg_catalog's thousands of functions are left out first, by an oid
            -- comparison, before the join; the CASE keeps the pattern off the other
            -- platform schemas' functions: it runs after the join, for the project's only.
            where p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
              and case when n.nspname <> all(\(array: LintCatalog.systemSchemas + ["pgwarden"])::text[])
                            and n.nspname not like 'pg\\_%'
                       then strpos(lower(p.prosrc), 'session_user') > 0
                            and p.prosrc ~* '\\msession_user\\M' else false end
              and not exists (select 1 from pg_catalog.pg_depend d
                              where d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass and d.objid = p.oid
                                and d.deptype = 'e')
            order by 1
            """
    }
}
