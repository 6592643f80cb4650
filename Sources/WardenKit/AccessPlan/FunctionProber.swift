import WardenPostgres

/// Asks, as each persona, whether it may execute each planned function
/// (`has_function_privilege` under the persona's role: the check a call would make),
/// and use its schema: a call of a function in a schema the role may not use fails
/// with 42501 "permission denied for schema", whatever its EXECUTE (a queue's wrapper
/// functions in an exposed schema only `service_role` may use were `execute` for
/// anon, where the project's own tests and every client got 42501).
/// Every question is a probe of a `ProbeBatch`, in a savepoint that is rolled back.
struct FunctionProber {
    let context: ProbeContext

    /// Queues every function's probes; the returned closure reads their results once
    /// the batch has run.
    func queue(_ functions: [(plan: FunctionPlan, signature: String, oid: String, schema: String)], _ batch: ProbeBatch)
        -> () throws -> [ProbeResult]
    {
        var pending: [() throws -> ProbeResult] = []
        for function in functions {
            let route = "/rpc/\(function.plan.signature.prefix { $0 != "(" }.split(separator: ".").last ?? "")"
            for persona in context.plan.personas {
                let expected = function.plan.execute[persona.name] ?? false
                let request = context.request(persona).routed("POST", route, schema: function.schema)
                let ticket = batch.rolledBack([
                    PersonaRequest.select(request.roleSwitch + request.requestSettings),
                    "select has_function_privilege(\(function.oid)::oid, 'execute') and has_schema_privilege(\(function.schema), 'usage')",
                ], parsedAs: request.role)
                pending.append {
                    let results = try batch.outcomes(ticket).map { try $0.get() }
                    let observed = results[1].scalar == "t"
                    return ProbeResult(
                        subjectKind: .function, subject: function.signature, persona: persona.name, operation: nil,
                        probe: "execute", expected: expected ? "execute" : "deny",
                        observed: observed ? "execute" : "deny", passed: expected == observed)
                }
            }
        }
        return { try pending.map { try $0() } }
    }
}
