import Foundation

/// A user who is no persona, signed up by the draft's setup for rows that need two
/// different users: `dms (a, b, check (a <> b))`, `friendships (user_a, user_b, check
/// (user_a < user_b))`. Each persona's row names the persona in its user column and
/// this user in the other one. (Both the persona, the check refused every row and the
/// table had none to probe; the other persona, each would have been a party to the
/// other's row, and "another user's row" a row of their own.)
///
/// Its id is fixed, the greatest or the least uuid, so that a check ordering the two
/// columns holds whatever id a persona gets.
struct DraftStandInUser: Hashable, Comparable {
    /// Whether its id sorts after every persona's or before.
    enum Order: Int, Hashable { case above, below }

    let order: Order

    var id: String {
        order == .above ? "ffffffff-ffff-ffff-ffff-ffffffffffff" : "00000000-0000-0000-0000-000000000001"
    }

    var email: String { order == .above ? "someone.draft@example.com" : "someone.else.draft@example.com" }

    /// The id as a sample or setup value.
    var sqlValue: String { "'\(id)'::uuid" }

    static func < (left: Self, right: Self) -> Bool { left.order.rawValue < right.order.rawValue }

    /// The one who holds a privilege that a table's row is (`staff (user_id)`), so that
    /// the table has a row and no persona the privilege.
    static let privilegeHolder = DraftStandInUser(order: .above)

    /// The stand-in `column` needs beside `personaColumn`, from the check constraints
    /// on the two of them (`Column.pairChecks`): one whose id differs from the persona's
    /// (`<>`, `is distinct from`, `not (a = b)`), or sorts after or before it (`<`,
    /// `>`, `<=`, `>=`, either way round, through casts), as every such check asks. Nil
    /// when no check relates them in one of those ways, or two ask for opposite orders.
    static func needed(by column: DraftCatalog.Column, beside personaColumn: String) -> DraftStandInUser? {
        var differs = false
        var orders: Set<Order> = []
        for check in column.pairChecks {
            guard let (left, comparison, right) = comparison(in: check) else { continue }
            let names = (DraftOwnership.unquoted(left), DraftOwnership.unquoted(right))
            switch comparison {
            case "<>", "IS DISTINCT FROM", "NOT =":
                if Set([names.0, names.1]) == Set([column.name, personaColumn]) { differs = true }
            case "<", "<=", ">", ">=":
                // Whether the column must sort after the persona's.
                if names == (personaColumn, column.name) {
                    orders.insert(comparison.hasPrefix("<") ? .above : .below)
                } else if names == (column.name, personaColumn) {
                    orders.insert(comparison.hasPrefix(">") ? .above : .below)
                }
            default:
                continue
            }
        }
        if orders.count > 1 { return nil }
        if let order = orders.first { return DraftStandInUser(order: order) }
        return differs ? DraftStandInUser(order: .above) : nil
    }

    /// `check`'s two identifiers and their comparison, with casts, parentheses and
    /// `NOT (a = b)`'s `NOT` read away: `(a <> b)` -> ("a", "<>", "b").
    private static func comparison(in check: String) -> (String, String, String)? {
        var text = check.replacingOccurrences(
            of: #"::\s*(?:character varying|double precision|[A-Za-z_][A-Za-z0-9_]*)(?:\[\])?"#, with: "",
            options: .regularExpression)
        text = text.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ")
        text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let identifier = DraftOwnership.identifier
        let pattern = "^(NOT )?" + identifier + " (<>|<=|>=|<|>|=|IS DISTINCT FROM) " + identifier + "$"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let left = Range(match.range(at: 2), in: text), let operation = Range(match.range(at: 3), in: text),
              let right = Range(match.range(at: 4), in: text)
        else { return nil }
        let negated = match.range(at: 1).location != NSNotFound
        let comparison = text[operation].uppercased()
        switch (negated, comparison) {
        case (false, "="): return nil
        case (true, "="): return (String(text[left]), "NOT =", String(text[right]))
        case (true, _): return nil
        default: return (String(text[left]), comparison, String(text[right]))
        }
    }

    /// `persona`'s user metadata, each text value naming the persona (`"ava_draft"`,
    /// `"Ava"`) naming this user instead (`"someone_draft"`, `"Someone"`): a sign-up
    /// trigger writing a handle into a unique column refused a stand-in given ava's own
    /// (23505), and every cell of a follows table went unprobed (round thirty-five).
    /// `{}` without a persona or metadata.
    func metadata(from persona: Persona?) -> String {
        guard let persona, let json = persona.user?.metadataJSON, let data = json.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return "{}" }
        let word = order == .above ? "someone" : "someoneelse"
        let renamed = object.mapValues { value -> Any in
            guard var text = value as? String, !persona.name.isEmpty else { return value }
            var searched = text.startIndex..<text.endIndex
            while let found = text.range(of: persona.name, options: .caseInsensitive, range: searched) {
                let capital = text[found].first?.isUppercase == true
                let replacement = capital ? word.capitalized : word
                text.replaceSubrange(found, with: replacement)
                let end = text.index(found.lowerBound, offsetBy: replacement.count)
                searched = end..<text.endIndex
            }
            return text
        }
        guard let written = try? JSONSerialization.data(withJSONObject: renamed, options: [.sortedKeys]) else { return json }
        return String(decoding: written, as: UTF8.self)
    }

    /// Admin SQL inserting the `auth.users` row Supabase Auth writes for a user who signed
    /// up with an email and no password (`encrypted_password` ''), confirmed: `id` is SQL,
    /// `metadataJSON` the user metadata (the sign-up's triggers read it).
    static func signUp(id: String, email: String, metadataJSON: String) -> String {
        """
        insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                                raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
        values (\(id), 'authenticated', 'authenticated', \(DraftOwnership.literal(email)), '', now(),
                '{"provider":"email","providers":["email"]}', \(DraftOwnership.literal(metadataJSON)), now(), now())
        """
    }

    /// The setup entry that signs the stand-ins up, as Supabase Auth would a user who
    /// signed up with an email (with `persona`'s metadata made theirs, for a sign-up
    /// trigger that needs some: `metadata(from:)`); `tables` are those whose rows need
    /// them (named in the entry's comment). A refusal raises a notice and leaves the rows
    /// that name them refused by their foreign key, each with its NOTE.
    static func setupEntry(_ users: [DraftStandInUser], metadataOf persona: Persona?, tables: [String]) -> String {
        let inserts = users.sorted().map { user in
            signUp(id: user.sqlValue, email: user.email, metadataJSON: user.metadata(from: persona)).split(separator: "\n")
                .map { "  \($0)" }.joined(separator: "\n") + ";"
        }.joined(separator: "\n")
        return """
            -- Someone who is no persona, for rows that need a user other than the personas (\(tables.joined(separator: ", "))):
            -- a row needing two different users names a persona and this user; a row that is a privilege, this user only.
            do $draft$ begin
            \(inserts)
            exception when others then
              raise notice 'plan draft: no stand-in user: %', sqlerrm;
            end $draft$
            """
    }
}
