import WardenPostgres

/// The settings PostgREST applies per request for the role it switches to
/// ("Impersonated Role Settings", PostgREST v13.0.7, `src/PostgREST/Config/Database.hs`,
/// queryRoleSettings): each role's own settings for every database (`pg_roles.rolconfig`,
/// i.e. `pg_db_role_setting` with `setdatabase = 0`), those a user may set (context
/// `user`) or that the authenticator was granted SET on; `default_transaction_isolation`
/// is used as the isolation level instead. On Supabase: anon `statement_timeout=3s`,
/// authenticated `8s`.
enum ImpersonatedRoleSettings {
    /// Role name -> its (setting, value) pairs, as `query(roles:)` found them.
    typealias ByRole = [String: [(name: String, value: String)]]

    /// The query that finds the given roles' settings (rows: role, name, value).
    static func query(roles: [String]) -> SQL {
        """
        select role, name, value from (
          select r.rolname::text as role, split_part(kv, '=', 1) as name,
                 substr(kv, strpos(kv, '=') + 1) as value, ps.context
          from pg_catalog.pg_roles r, unnest(r.rolconfig) as kv
          join pg_catalog.pg_settings ps on ps.name = split_part(kv, '=', 1)
          where r.rolname = any(\(array: roles))
            and split_part(kv, '=', 1) <> 'default_transaction_isolation'
          -- The role's few settings are found first: the privilege check below, left
          -- to the planner, ran for every setting the server has (issue 18).
          offset 0
        ) found
        where context = 'user'
           or (to_regrole('authenticator') is not null
               and pg_catalog.has_parameter_privilege('authenticator', name, 'set'))
        order by 1, 2
        """
    }

    /// The settings in `result`, a result of `query(roles:)`.
    static func settings(from result: QueryResult) -> ByRole {
        var settings: ByRole = [:]
        for row in result.rows {
            guard row.count == 3, let role = row[0], let name = row[1], let value = row[2] else { continue }
            settings[role, default: []].append((name, value))
        }
        return settings
    }

    /// The settings a request runs with: PostgREST connects as `authenticator`, whose
    /// own settings (on Supabase `statement_timeout` and `lock_timeout` 8s) hold for the
    /// session, and the impersonated role's override them for the transaction.
    static func merged(connection: [(name: String, value: String)], role: [(name: String, value: String)]) -> [(name: String, value: String)] {
        connection.filter { setting in !role.contains { $0.name == setting.name } } + role
    }
}
