import WardenPostgres

/// Names the trigger on `auth.users` that made a persona's sign-up fail: the enabled
/// triggers whose function the error's context mentions (PL/pgSQL reports
/// "PL/pgSQL function public.handle_new_user() line 5 at RAISE").
enum SignUpTriggers {
    /// "trigger on_auth_user_created (public.handle_new_user())", or nil when the error
    /// did not come from a trigger on auth.users.
    static func culprit(of error: PGError, on connection: Connection) throws -> String? {
        guard let context = error.context, !context.isEmpty else { return nil }
        let rows = try connection.query(
            """
            select t.tgname::text,
                   format('%s.%s(%s)', p.pronamespace::regnamespace, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)),
                   p.proname::text
            from pg_catalog.pg_trigger t join pg_catalog.pg_proc p on p.oid = t.tgfoid
            where t.tgrelid = to_regclass('auth.users') and not t.tgisinternal and t.tgenabled <> 'D'
            order by 1
            """).rows
        let named = rows.compactMap { row -> String? in
            guard row.count == 3, let trigger = row[0], let function = row[1], let name = row[2],
                  context.contains("function \(function)") || context.contains(".\(name)(") || context.contains(" \(name)(")
            else { return nil }
            return "trigger \(trigger) (\(function))"
        }
        return named.isEmpty ? nil : named.joined(separator: " or ")
    }
}
