import Foundation
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
    /// Also the keys the error names that the body holds as a literal (`array['username',
    /// 'first_login']` and "missing required key: username"): a key checked in a loop
    /// was missing from the hint, the very one the error asked for.
    func metadataKeys(of error: PGError) -> [String] {
        let named = raising(error)
        let bodies = (named.isEmpty ? triggers : named).map(\.body)
        let message = Set(error.message.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        // Not a JSON type's name (`jsonb_typeof(...) not in ('boolean', 'null')`, whose
        // message says "must be of boolean type"): the hint added a key "boolean".
        let asked = bodies.flatMap(Self.literals).filter { message.contains($0.lowercased()) && !Self.jsonTypes.contains($0.lowercased()) }
        return Array(Set((named.isEmpty ? triggers : named).flatMap(\.metadataKeys) + asked)).sorted()
    }

    /// Whether the functions of the triggers that raised `error` (every trigger's, when
    /// none is named) read the user's metadata at all (`raw_user_meta_data`).
    /// The names `jsonb_typeof` answers with.
    private static let jsonTypes: Set<String> = ["object", "array", "string", "number", "boolean", "null"]

    func readMetadata(_ error: PGError) -> Bool {
        let named = raising(error)
        return (named.isEmpty ? triggers : named).contains { $0.body.range(of: "raw_user_meta_data", options: .caseInsensitive) != nil }
    }

    /// A JSON value for each of `keys` that the bodies of the triggers that raised
    /// `error` would take: `true` where they test it is a boolean (`jsonb_typeof(...) <>
    /// 'boolean'`, a `::boolean` cast), 1 for a number, a uuid for a `::uuid` cast or a
    /// key named `sub` or `..._id`, a date, an email for a key named for one; else a text.
    /// ("value" for every key failed "first_login must be of boolean type".)
    func metadataValues(of error: PGError, keys: [String]) -> [String: String] {
        let named = raising(error)
        let body = (named.isEmpty ? triggers : named).map(\.body).joined(separator: "\n").lowercased()
        return Dictionary(uniqueKeysWithValues: keys.map { key in (key, Self.exampleValue(of: key, in: body)) })
    }

    /// The example values `metadataValues` gives where a key takes any text, an e-mail
    /// or a uuid (`PersonaSignUpRefusal` makes each persona's own of them).
    static let anyText = #""value""#
    static let anEmail = #""someone@example.com""#
    static let aUUID = #""00000000-0000-4000-8000-000000000001""#

    private static func exampleValue(of key: String, in body: String) -> String {
        let quoted = NSRegularExpression.escapedPattern(for: "'\(key.lowercased())'")
        func used(_ pattern: String) -> Bool {
            body.range(of: pattern, options: .regularExpression) != nil
        }
        let cast = quoted + #"\s*\)*\s*::\s*"#
        // `<> 'boolean'`, `not in ('boolean', 'null')` (round thirty-eight: the hint gave the key as text).
        let typeOf = #"jsonb?_typeof\s*\([^()]*"# + quoted + #"\s*\)\s*(?:(?:<>|!=|=)\s*|(?:not\s+)?in\s*\(\s*)'"#
        let lowered = key.lowercased()
        if used(typeOf + "boolean'") || used(cast + "bool") { return "true" }
        if used(typeOf + "number'") || used(cast + "(?:int|integer|bigint|smallint|numeric|real|double)") { return "1" }
        if used(cast + "uuid") || lowered == "sub" || lowered.hasSuffix("_id") { return aUUID }
        if used(cast + "date") { return #""2000-01-01""# }
        if used(cast + "timestamp") { return #""2000-01-01T00:00:00Z""# }
        if lowered.contains("email") { return anEmail }
        return anyText
    }

    /// The string literals of a function body (`'username'`), each once.
    private static func literals(in body: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"'([A-Za-z_][A-Za-z0-9_]*)'"#) else { return [] }
        let found = regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
            Range(match.range(at: 1), in: body).map { String(body[$0]) }
        }
        return Array(Set(found))
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
        /// Its function's body.
        let body: String
        var shown: String { "trigger \(trigger) (\(function))" }
    }

    /// The `raw_user_meta_data` keys a function body reads (`new.raw_user_meta_data ->>
    /// 'firstName'`, `? 'roles'`), as written, in order of first use.
    static func metadataKeys(in body: String) -> [String] {
        var keys: [String] = []
        for match in body.matches(of: /raw_user_meta_data\s*(?:->>?|\?)\s*'([^']+)'/.ignoresCase()) {
            let key = String(match.1)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The enabled, user-defined triggers on auth.users, by name.
    private static func triggers(on connection: Connection) throws -> [Trigger] {
        // pg_trigger.tgtype bits: 1 row, 2 before, 4 insert.
        let rows = try connection.query(
            """
            select t.tgname::text,
                   format('%s.%s(%s)', p.pronamespace::regnamespace, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)),
                   p.proname::text, (t.tgtype::int & 7 = 7)::text, p.prosrc
            from pg_catalog.pg_trigger t join pg_catalog.pg_proc p on p.oid = t.tgfoid
            where t.tgrelid = to_regclass('auth.users') and not t.tgisinternal and t.tgenabled <> 'D'
            order by 1
            """).rows
        return rows.compactMap { row in
            guard row.count == 5, let trigger = row[0], let function = row[1], let name = row[2] else { return nil }
            let body = row[4] ?? ""
            return Trigger(trigger: trigger, function: function, name: name, firesBeforeInsertPerRow: row[3] == "true",
                           metadataKeys: metadataKeys(in: body), body: body)
        }
    }
}
