import Foundation
import WardenPostgres

/// pgwarden's own rule `access_token_hook_reads_user_metadata`: the project's custom
/// access token hook reads `user_metadata`, which every signed-in user may set
/// (Supabase Auth's update-user call merges the keys sent), so a claim it derives from
/// it is the user's to choose. Supabase's advisor flags a policy reading
/// `user_metadata` (0015) but not a hook copying it into a claim the policies read: a
/// mental-health app's hook issued `platform: mobile` from the metadata, its insert
/// policies trusted the claim, and `dev` and `lint` said nothing (round thirty-seven).
///
/// The probe calls the hook as the auth server does (`AccessTokenHookCall`), with ava's
/// issued claims, her metadata as it is, then each key the hook reads set to a value
/// (the hook's literals, those of the policies reading its claims); her `auth.users`
/// row carries the same metadata, for a hook that reads it there. All in a rolled-back
/// savepoint. Proven when a forged value changes a claim a policy (or a function it
/// calls) reads; a claim changed that no policy reads leaves the finding a WARN.
struct HookUserMetadataProbe {
    let context: ProbeContext
    let finding: LintFinding
    let hook: AccessTokenHook
    /// Table -> the top-level claims its policies read (`DraftCatalog.hookClaimsRead`).
    let claimsRead: [String: [String]]
    /// Table -> its policies' expressions, for the values they compare the claims with.
    let policyExpressions: [String: [String]]

    /// The finding, when `hook`'s function exists and its body reads `user_metadata`
    /// (the claim's or the `auth.users` column's).
    static func finding(for hook: AccessTokenHook, on connection: Connection) throws -> LintFinding? {
        guard let row = try connection.query(
            """
            select p.prosrc, \(raw: ExposedCatalog.signatureSQL)
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
            where n.nspname = \(hook.schema) and p.proname = \(hook.function)
            order by p.oid limit 1
            """).rows.first, let body = row[0], let signature = row[1] else { return nil }
        let keys = Self.keys(in: body)
        guard body.range(of: "user_meta", options: .caseInsensitive) != nil else { return nil }
        let read = keys.isEmpty ? "" : " (\(keys.joined(separator: ", ")))"
        return LintFinding(
            rule: .accessTokenHookReadsUserMetadata, kind: .function, schema: hook.schema, name: hook.function,
            signature: signature,
            detail: "the custom access token hook \(signature) (\(hook.origin)) reads user_metadata\(read), which every "
                + "signed-in user may set (updateUser), so a claim it derives from it is the user's to choose: derive it from "
                + "app_metadata or a table users cannot write")
    }

    /// The `user_metadata` keys a hook's body reads: `event #>> '{claims,user_metadata,platform}'`,
    /// `-> 'user_metadata' ->> 'platform'`, `raw_user_meta_data ->> 'role'`; in order of first use.
    static func keys(in body: String) -> [String] {
        var keys: [String] = []
        let patterns = [
            #"user_metadata\s*,\s*"?([A-Za-z0-9_]+)"?\s*\}"#,
            #"user_metadata'?\)*\s*->>?\s*'([^']+)'"#,
            #"raw_user_meta_data\)*\s*->>?\s*'([^']+)'"#,
        ]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: .caseInsensitive) else { continue }
            for match in regex.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                guard let range = Range(match.range(at: 1), in: body) else { continue }
                let key = String(body[range])
                if !keys.contains(key) { keys.append(key) }
            }
        }
        return keys
    }

    func run() throws -> LintConsequence {
        guard let name = context.userName, let ava = context.plan.persona(named: name), let user = ava.user,
              let id = context.userIDs[name] else {
            return LintConsequence(verdict: .notProbed, evidence: [ProbeContext.leftOutEvidence])
        }
        let body = try context.connection.query(
            "select prosrc from pg_catalog.pg_proc where oid = to_regprocedure(\(finding.signature ?? ""))").scalar ?? ""
        let keys = Self.keys(in: body)
        guard !keys.isEmpty else {
            return LintConsequence(verdict: .notProbed, evidence: ["no user_metadata key the hook reads was found in its body"])
        }
        guard var claims = JSONText.object(context.request(ava).claimsJSON) else {
            return LintConsequence(verdict: .notProbed, evidence: ["\(name) has no token to start from"])
        }
        let call = AccessTokenHookCall(connection: context.connection, hook: hook, adminRoleSetting: context.seal.roleSetting)
        let read = Set(claimsRead.values.flatMap { $0 })
        func issued(_ metadataJSON: String) throws -> [String: Any]? {
            claims["user_metadata"] = JSONText.object(metadataJSON) ?? [:]
            return try context.connection.rolledBack {
                try context.connection.query(
                    "update auth.users set raw_user_meta_data = \(metadataJSON)::jsonb where id = \(id)::uuid")
                return try? call.call(userID: id, claims: claims, authenticationMethod: "password")
            }
        }
        let own = user.metadataJSON
        guard let baseline = try issued(own) else {
            return LintConsequence(verdict: .notProbed, evidence: ["the hook refused \(name)'s own sign-in"])
        }
        let tried = values(body: body, keys: keys)
        var evidence: [String] = []
        var changedUnread: (metadata: String, claims: [String])?
        for key in keys {
            for value in tried {
                let forged = JSONText.encode((JSONText.object(own) ?? [:]).merging([key: value]) { _, new in new })
                guard let output = try issued(forged) else { continue }
                let changed = output.keys.filter { claim in
                    claim != "user_metadata" && !Self.same(output[claim], baseline[claim])
                }.sorted()
                guard !changed.isEmpty else { continue }
                let shown = changed.map { "\($0): \(JSONText.encode(output[$0] ?? NSNull()))" }.joined(separator: ", ")
                let readBy = claimsRead.filter { !Set($0.value).isDisjoint(with: changed) }.keys.sorted()
                guard !readBy.isEmpty else {
                    if changedUnread == nil { changedUnread = (forged, changed) }
                    continue
                }
                evidence.append("the hook, given \(name)'s user_metadata as \(forged), issued \(shown) "
                    + "(with \(Self.possessive(name)) own: \(changed.map { "\($0): \(JSONText.encode(baseline[$0] ?? NSNull()))" }.joined(separator: ", ")))")
                evidence.append("the policies of \(readBy.joined(separator: ", ")) read \(changed.filter(read.contains).joined(separator: ", "))")
                return LintConsequence(verdict: .proven, evidence: evidence, personas: [name])
            }
        }
        if let changedUnread {
            evidence.append("the hook, given \(name)'s user_metadata as \(changedUnread.metadata), issued other "
                + "\(changedUnread.claims.joined(separator: ", ")); no policy reads \(changedUnread.claims.count == 1 ? "it" : "them"), "
                + "but the app's own code may trust \(changedUnread.claims.count == 1 ? "it" : "them")")
            return LintConsequence(verdict: .notProbed, evidence: evidence)
        }
        evidence.append("no user_metadata value tried (keys \(keys.joined(separator: ", ")), the hook's and the policies' "
            + "literals) changed a claim the hook issued")
        return LintConsequence(verdict: .harmless, evidence: evidence)
    }

    /// The values tried: the hook's string literals, then those of the policies reading
    /// its claims, then `true` (a flag), other than the keys and the claims' names.
    private func values(body: String, keys: [String]) -> [Any] {
        let texts = [body] + claimsRead.keys.sorted().flatMap { policyExpressions[$0] ?? [] }
        let found = UserMetadataPolicyProbe.stringLiterals(
            in: texts, skipping: Set(keys + ["user_metadata", "app_metadata", "claims", "role", "authenticated"])
        ).filter { !$0.isEmpty && !$0.hasPrefix("{") }
        return Array(found.prefix(20)) + [true]
    }

    private static func same(_ a: Any?, _ b: Any?) -> Bool {
        JSONText.encode(a ?? NSNull()) == JSONText.encode(b ?? NSNull())
    }

    private static func possessive(_ name: String) -> String { name == "ava" ? "her" : "their" }
}
