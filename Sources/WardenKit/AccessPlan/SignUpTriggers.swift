import WardenPostgres

/// Names the trigger on `auth.users` that made a persona's sign-up fail: the enabled
/// triggers whose function the error's context mentions (PL/pgSQL reports
/// "PL/pgSQL function public.handle_new_user() line 5 at RAISE"), or, when the insert
/// made no row, the BEFORE INSERT row triggers (one of them returned NULL).
struct SignUpTriggers {
    private let triggers: [Trigger]

    /// Reads the enabled, user-defined triggers on auth.users, once for every refusal
    /// a caller has to explain.
    static func read(_ connection: Connection) throws -> SignUpTriggers {
        SignUpTriggers(triggers: try triggers(on: connection))
    }

    /// "trigger on_auth_user_created (public.handle_new_user())", or nil when the error
    /// did not come from a trigger on auth.users.
    func culprit(of error: PGError) -> String? {
        let named = raising(error)
        return named.isEmpty ? nil : named.map(\.shown).joined(separator: " or ")
    }

    /// The `raw_user_meta_data` keys the functions of the triggers that raised `error`
    /// read (`new.raw_user_meta_data ->> 'firstName'`), sorted; those of every trigger
    /// when none is named.
    func metadataKeys(of error: PGError) -> [String] {
        let named = raising(error)
        return Array(Set((named.isEmpty ? triggers : named).flatMap(\.metadataKeys))).sorted()
    }

    /// The triggers whose function the error's context names.
    private func raising(_ error: PGError) -> [Trigger] {
        guard let context = error.context, !context.isEmpty else { return [] }
        return triggers.filter { trigger in
            context.contains("function \(trigger.function)") || context.contains(".\(trigger.name)(")
                || context.contains(" \(trigger.name)(")
        }
    }

    /// The enabled BEFORE INSERT row triggers on auth.users ("trigger t (public.f())",
    /// joined by "or"), nil when there is none: when an insert into auth.users makes no
    /// row, one of them returned NULL (PostgreSQL then skips the row without an error).
    var rowSkippers: String? {
        let found = triggers.filter(\.firesBeforeInsertPerRow)
        return found.isEmpty ? nil : found.map(\.shown).joined(separator: " or ")
    }

    /// What a skipped sign-up says: no row, which trigger(s) could have skipped it.
    static func skippedRowMessage(triggers: String?) -> String {
        "no auth.users row was made: "
            + (triggers.map { "\($0) returned NULL, which skips the row without an error" }
                ?? "a BEFORE INSERT trigger returned NULL, which skips the row without an error")
    }

    private struct Trigger {
        let trigger: String
        /// schema.name(arguments)
        let function: String
        /// The function's name alone.
        let name: String
        let firesBeforeInsertPerRow: Bool
        /// The `raw_user_meta_data` keys its function's body reads.
        let metadataKeys: [String]
        var shown: String { "trigger \(trigger) (\(function))" }
    }

    /// The enabled, user-defined triggers on auth.users, by name.
    private static func triggers(on connection: Connection) throws -> [Trigger] {
        // pg_trigger.tgtype bits: 1 row, 2 before, 4 insert.
        let rows = try connection.query(
            """
            select t.tgname::text,
                   format('%s.%s(%s)', p.pronamespace::regnamespace, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)),
                   p.proname::text, (t.tgtype::int & 7 = 7)::text,
                   array_to_json(array(select distinct m[1] from regexp_matches(
                       p.prosrc, 'raw_user_meta_data\\s*->>?\\s*''([^'']+)''', 'g') m order by 1))::text
            from pg_catalog.pg_trigger t join pg_catalog.pg_proc p on p.oid = t.tgfoid
            where t.tgrelid = to_regclass('auth.users') and not t.tgisinternal and t.tgenabled <> 'D'
            order by 1
            """).rows
        return rows.compactMap { row in
            guard row.count == 5, let trigger = row[0], let function = row[1], let name = row[2] else { return nil }
            return Trigger(trigger: trigger, function: function, name: name, firesBeforeInsertPerRow: row[3] == "true",
                           metadataKeys: JSONStringArray.decode(row[4]))
        }
    }
}
