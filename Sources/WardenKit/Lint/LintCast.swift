/// Who `pgwarden lint`'s probes act as: anon, two signed-in users and service_role.
///
/// Without a plan, the drafted personas (ava and ben, with `--user-metadata`). With a
/// plan, its own personas, so that their accounts (email, `metadata:`, provider, app
/// metadata) are the ones the project's sign-up trigger accepts: its first persona of
/// role anon, its first two signed-in users with an email (whose token is not expired),
/// its first of role service_role; what the plan lacks is drafted, a drafted user
/// taking the metadata of `--user-metadata`, else of the plan's first signed-in user.
enum LintCast {
    static func personas(plan: AccessPlan, drafted: [Persona], metadata: DraftUserMetadata) -> [Persona] {
        var taken = Set(plan.personas.map(\.name))
        func unused(_ persona: Persona) -> Persona {
            var persona = persona
            var name = persona.name
            var number = 2
            while taken.contains(name) {
                name = "\(persona.name)\(number)"
                number += 1
            }
            persona.name = name
            taken.insert(name)
            return persona
        }
        let draftedUsers = drafted.filter { $0.user != nil }
        let anon = plan.personas.first { $0.role == "anon" && $0.user == nil }
            ?? drafted.first { $0.role == "anon" }.map(unused)
        let service = plan.personas.first { $0.role == "service_role" && $0.user == nil }
            ?? drafted.first { $0.role == "service_role" }.map(unused)
        var users = Array(plan.personas.filter { persona in
            guard persona.role == "authenticated", let user = persona.user else { return false }
            return !user.isAnonymous && !user.email.isEmpty && !persona.token.expired
        }.prefix(2))
        let planned = users.first?.user?.metadataJSON
        for drafted in draftedUsers.prefix(2 - users.count) {
            var filler = unused(drafted)
            if metadata.byPersona[drafted.name] == nil, let planned { filler.user?.metadataJSON = planned }
            users.append(filler)
        }
        return [anon].compactMap { $0 } + users + [service].compactMap { $0 }
    }
}

extension ProbeContext {
    /// The persona lint acts as for anon (role anon, no account).
    var anonName: String? { plan.personas.first { $0.role == "anon" && $0.user == nil }?.name }

    /// The first signed-in persona (ava without a plan), nil when it was left out.
    var userName: String? { someUser?.name }

    /// The second signed-in persona (ben without a plan), nil when it was left out.
    var otherUserName: String? { someUser.flatMap { otherUser(than: $0) }?.name }

    /// Evidence for a probe that needed a signed-in persona the run left out.
    static let leftOutEvidence = "a signed-in persona this needs was left out (its sign-up was refused), so it was not probed"
}
