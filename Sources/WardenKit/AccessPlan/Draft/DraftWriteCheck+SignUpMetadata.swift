import Foundation

extension DraftWriteCheck {
    /// One check per `raw_user_meta_data` key the sign-up's triggers (on `auth.users`)
    /// read and per privileged value of a role column of a table their bodies name
    /// (`user_roles.role 'admin'`, as `selfPromotions` finds them): a new user signs up
    /// with that value under that key (`{"roles": ["admin"]}`, as an array where the body
    /// walks the key's elements), the way any client's `signUp({ options: { data } })`
    /// sends it, and the admin looks for a row of the new user holding the value. Found:
    /// any user makes themselves an administrator at sign-up (a recycling app's
    /// `handle_new_user` copied `roles` from the metadata; `dev`, `plan draft` and `lint`
    /// said nothing). Kept as it came out: the row's absence is checked where there was none.
    ///
    /// The same for the triggers an update of `auth.users` fires, where the persona
    /// rewrites its own metadata, as `supabase.auth.updateUser({ data })` does (Supabase
    /// Auth merges the keys sent into `raw_user_meta_data`): a trigger copying `roles`
    /// from it on update made any signed-in user an administrator, and only the sign-up
    /// was checked.
    static func signUpMetadataGrants(ownership: DraftOwnership, exposed: [String: String], personas: [Persona])
        -> [DraftWriteCheck]
    {
        metadataGrants(ownership: ownership, exposed: exposed, personas: personas, byUpdate: false)
            + metadataGrants(ownership: ownership, exposed: exposed, personas: personas, byUpdate: true)
    }

    private static func metadataGrants(ownership: DraftOwnership, exposed: [String: String], personas: [Persona],
                                       byUpdate: Bool) -> [DraftWriteCheck] {
        guard let (writer, _, _, _) = writerAndOther(personas), let email = writer.user?.email else { return [] }
        let catalog = ownership.catalog
        let (bodies, keys) = byUpdate
            ? (catalog.userUpdateTriggerBodies, catalog.userUpdateMetadataKeys)
            : (catalog.signUpTriggerBodies, catalog.signUpMetadataKeys)
        guard !keys.isEmpty else { return [] }
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            let bare = DraftOwnership.bareName(of: table)
            guard bodies.contains(bare), let owner = ownership.ownerColumn(of: table) ?? catalog.userColumns[table] else { return [] }
            return (catalog.columns[table] ?? []).flatMap { column -> [DraftWriteCheck] in
                guard column.name != owner, column.holdsRole || column.category == "B",
                      let value = privilegedValue(of: column, catalog: catalog) else { return [] }
                let json = value == "true" ? "true" : JSONText.quote(String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
                return keys.map { key in
                    let element = walksElements(of: key.lowercased(), in: bodies) ? "[\(json)]" : json
                    let metadata = "{\(JSONText.quote(key)): \(element)}"
                    let holds = "select exists (select 1 from \(quoted) where \(DraftOwnership.sqlName(owner)) = "
                        + "nullif(current_setting('\(setting)'), '')::uuid and \(DraftOwnership.sqlName(column.name)) = \(value))"
                    let signingUp = byUpdate
                        ? "\(writer.name) updating their user_metadata with \(metadata)"
                        : "a new user signing up with user_metadata \(metadata)"
                    var check = expectingOneRow(
                        "\(signingUp) gets \(column.name) \(value) in \(table)", writer: writer, sql: "select 1")
                    check.before = byUpdate ? updateUser(email: email, metadata: metadata) : signUp(metadata: metadata)
                    check.verify = holds
                    var write = DraftWriteCheck(
                        table: table, check: check,
                        danger: byUpdate
                            ? "a signed-in user may give themselves \(column.name) \(value) in \(table) by updating their "
                                + "user_metadata with \(metadata), which any client's updateUser sends (a trigger on "
                                + "auth.users copies it on update)"
                            : "a new user may give themselves \(column.name) \(value) in \(table) by signing up with "
                                + "user_metadata \(metadata), which any client sends (the sign-up's trigger on auth.users copies it)")
                    write.absentVerify = "select not exists (" + holds.dropFirst("select exists (".count)
                    write.absentName = "\(signingUp) does not get \(column.name) \(value) in \(table)"
                    write.bySignUp = !byUpdate
                    return write
                }
            }
        }
    }

    /// Admin SQL signing a new user up as Supabase Auth would with `metadata` (its
    /// `auth.users` row; the sign-up's triggers run), the new user's id in `setting`.
    private static func signUp(metadata: String) -> String {
        let insert = DraftStandInUser.signUp(id: "gen_random_uuid()", email: "signup.draft@example.com", metadataJSON: metadata)
        return "with signed_up as (\n" + insert.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")
            + "\n  returning id)\nselect set_config('\(setting)', coalesce((select id::text from signed_up), ''), true)"
    }

    /// Admin SQL rewriting the user's metadata as Supabase Auth's `updateUser({ data })`
    /// does (the keys sent merged into `raw_user_meta_data`; the update's triggers run),
    /// the user's id in `setting`.
    private static func updateUser(email: String, metadata: String) -> String {
        "with updated as (update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || "
            + "\(DraftOwnership.literal(metadata))::jsonb where email = \(DraftOwnership.literal(email)) returning id)\n"
            + "select set_config('\(setting)', coalesce((select id::text from updated), ''), true)"
    }

    /// Whether `bodies` walk the elements of the metadata key (both lowercased):
    /// `jsonb_array_elements_text(new.raw_user_meta_data -> 'roles')`, or a test that it
    /// is an array.
    static func walksElements(of key: String, in bodies: String) -> Bool {
        let quoted = NSRegularExpression.escapedPattern(for: "'\(key)'")
        return bodies.range(of: #"jsonb?_array_elements(?:_text)?\s*\(\s*\(?\s*new\.raw_user_meta_data\s*->\s*"# + quoted,
                            options: .regularExpression) != nil
            || bodies.range(of: #"jsonb?_typeof\s*\(\s*new\.raw_user_meta_data\s*->\s*"# + quoted + #"\s*\)\s*=\s*'array'"#,
                            options: .regularExpression) != nil
    }
}
