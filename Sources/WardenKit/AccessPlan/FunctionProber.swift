import WardenPostgres

/// Asks, as each persona, whether it may execute each planned function
/// (`has_function_privilege` under the persona's role: the check a call would make).
struct FunctionProber {
    let context: ProbeContext

    func run(_ functions: [(plan: FunctionPlan, signature: String, oid: String)]) throws -> [ProbeResult] {
        var results: [ProbeResult] = []
        for function in functions {
            for persona in context.plan.personas {
                let expected = function.plan.execute[persona.name] ?? false
                let allowed = try context.impersonation.probe(context.request(persona).routed("POST", "/rpc/\(function.plan.signature.prefix { $0 != "(" }.split(separator: ".").last ?? "")")) {
                    try context.connection.query("select has_function_privilege(\(function.oid)::oid, 'execute')").scalar
                }
                let observed = allowed == "t"
                results.append(ProbeResult(
                    subjectKind: .function, subject: function.signature, persona: persona.name, operation: nil,
                    probe: "execute", expected: expected ? "execute" : "deny",
                    observed: observed ? "execute" : "deny", passed: expected == observed))
            }
        }
        return results
    }
}
