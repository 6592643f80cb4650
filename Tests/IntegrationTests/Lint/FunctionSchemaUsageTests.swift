import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A function in an exposed schema that only `service_role` may use, which keeps
/// PUBLIC's default EXECUTE (a queue's wrapper functions): every call by anon or a
/// signed-in user fails with 42501 "permission denied for schema", as the project's own
/// pgTAP test showed, yet the matrix said `exec`, a drafted plan wrote `execute` and
/// passed, and a correct plan (`deny`) failed; lint called the function anon may execute.
/// Executing takes USAGE on the schema too.
@Suite struct FunctionSchemaUsageTests {
    static let schema = """
        create schema jobs;
        grant usage on schema jobs to service_role;
        create table public.tasks (id bigint generated always as identity primary key, done boolean not null default false);
        alter table public.tasks enable row level security;
        create function jobs.finish_all() returns integer language sql security definer set search_path = '' as
        $$ with u as (update public.tasks set done = true returning 1) select count(*)::integer from u $$;
        """

    @Test func aFunctionInASchemaTheRoleMayNotUseIsDenied() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("fnschemausage").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection, api: ProjectAPISettings(exposedSchemas: ["public", "jobs"])).draft()
        let function = try #require(draft.plan.functions.first { $0.signature == "jobs.finish_all()" }, "\(draft.yaml)")
        #expect(function.execute == ["anon": false, "ava": false, "ben": false, "service": true], "\(draft.yaml)")
        #expect(!draft.findings.findings.contains { $0.rule == .anonSecurityDefinerFunctionExecutable && $0.subject == "jobs.finish_all()" },
                "\(draft.findings.findings.map(\.subject))")
        #expect(draft.verified)

        // With USAGE granted, anon may call it: `execute`, and lint's finding is back.
        try connection.execute("grant usage on schema jobs to anon, authenticated")
        let granted = try PlanDrafter(connection: connection, api: ProjectAPISettings(exposedSchemas: ["public", "jobs"])).draft()
        #expect(granted.plan.functions.first { $0.signature == "jobs.finish_all()" }?.execute["anon"] == true, "\(granted.yaml)")
        #expect(granted.findings.findings.contains { $0.rule == .anonSecurityDefinerFunctionExecutable && $0.subject == "jobs.finish_all()" })
    }
}
