import Foundation
import WardenKit
import WardenPostgres

/// What `test` and `dev` check once the database is ready: the project's access plan,
/// or, when it has none, the access as observed where the project's API looks (the
/// config.toml near the plan's path). Read, like every input, before anything reaches
/// a server.
enum AccessCheck {
    case plan(AccessPlan)
    case observation(ProjectAPISettings)

    /// The plan at `planFile` when `hasPlan`, else the API settings near that path (each
    /// with the config.toml beside the plan, else the project's at `projectRoot`).
    static func read(planFile: URL, hasPlan: Bool, projectRoot: URL?) throws -> AccessCheck {
        guard hasPlan else { return .observation(try ProjectAPISettings(nearPlan: planFile.path, projectRoot: projectRoot)) }
        let plan = try AccessPlan(contentsOf: planFile, projectRoot: projectRoot)
        plan.noteConfiguredSchemasLeftOut()
        return .plan(plan)
    }

    /// The plan, when there is one.
    var plan: AccessPlan? {
        if case .plan(let plan) = self { return plan }
        return nil
    }
}

extension AccessPlan {
    /// A note on standard error for each schema the project's config.toml exposes and
    /// the plan's `schemas:` leave out: the plan says what it checks, and what it does not.
    func noteConfiguredSchemasLeftOut() {
        guard let config = schemasConfig else { return }
        let at = schemasLine.map { "\(source):\($0)" } ?? source
        for name in configuredSchemasLeftOut {
            Terminal.note("note: \(config) exposes schema '\(name)' ([api] schemas), which the plan's schemas (\(at)) leave out: its relations are not checked")
        }
    }
}

extension ProjectAPISettings {
    /// The access observed where the project's API looks (what `plan draft` sees), as
    /// `test` and `dev` show it without a plan: signed-in personas the database refuses
    /// to sign up are left out and named (`PlanDraft.leftOut`), not a failure.
    func observedAccess(on connection: Connection, userMetadata: [String]) throws -> PlanDraft {
        var drafter = try PlanDrafter(connection: connection, api: try forDatabase(connection), userMetadata: userMetadata)
        drafter.leavesOutRefusedPersonas = true
        return try drafter.draft()
    }
}
