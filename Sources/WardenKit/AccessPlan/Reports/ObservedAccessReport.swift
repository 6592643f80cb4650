/// The first answer before there is a plan (`test` and `dev` without an access-plan
/// file): the access matrix as `plan draft` observes it, the dangers a reviewer would
/// flag first (the draft's DANGER cells and `pgwarden lint`'s dangers, with what the
/// probes showed), and one line on how to start a plan.
public struct ObservedAccessReport {
    /// What was observed.
    public let draft: PlanDraft
    /// The plan file that does not exist (for the messages).
    public let planFile: String

    /// The report of a draft, for a project whose plan file (`planFile`) does not exist.
    public init(_ draft: PlanDraft, planFile: String) {
        self.draft = draft
        self.planFile = planFile
    }

    /// Cell dangers and lint dangers, one line each (evidence indented under its finding).
    /// A cell lint also probed without finding a consequence (anon calling a security
    /// definer helper that answers false) shows those calls under it: the advisor's flag
    /// stands, with what the calls did.
    /// A lint danger whose proof is an anon relation cell's (anon's writes under an
    /// always-true policy for anon) goes under that cell, one line, without its probes:
    /// the cell already says what anon may write (a project's 9 cells and 21 policies
    /// were 30 DANGERs and their probes). A function's, or a signed-in user's, keeps its
    /// probes: they say what the call did, or more than the cell (a row given away). A
    /// function's that anon's function cell already names goes under that cell with its
    /// probes (the cell and the finding were two DANGERs of one grant).
    public var dangerLines: [String] {
        var folded: Set<Int> = []
        let dangers = draft.findings.dangers
        let anon = Set(draft.plan.personas.filter { $0.role == "anon" }.map(\.name))
        let cells = draft.dangerCells.flatMap { cell in
            let parts = cell.components(separatedBy: " · ")
            let persona = parts.count == 2 ? parts[1].split(separator: ":").first.map(String.init) : nil
            let isRelation = draft.plan.relations.contains { $0.qualifiedName == parts[0] }
            let isFunction = draft.plan.functions.contains { $0.signature == parts[0] }
            let same = dangers.indices.filter { index in
                guard isRelation || isFunction, let persona, anon.contains(persona) else { return false }
                return dangers[index].subject == parts[0] && dangers[index].consequence?.personas.contains(persona) == true
            }
            folded.formUnion(same)
            return ["DANGER \(cell)"] + probedWithoutConsequence(cell).map { "  probe: \($0)" }
                + same.flatMap { index in
                    ["  lint: \(dangers[index].rule.rawValue): \(dangers[index].detail)"]
                        + (isFunction ? (dangers[index].consequence?.evidence ?? []).map { "  probe: \($0)" } : [])
                }
        }
        return cells + dangers.indices.filter { !folded.contains($0) }.flatMap { index in
            let finding = dangers[index]
            return ["DANGER \(finding.rule.rawValue) \(finding.subject): \(finding.detail)"]
                + (finding.consequence?.evidence ?? []).map { "  probe: \($0)" }
        }
    }

    /// The evidence of lint's findings on a function cell's subject that it probed
    /// without proving a consequence (harmless, or not probed: the calls proved nothing
    /// either way), the cell's persona's calls only (a cell reads `subject · persona:
    /// ...`). Not a relation's: its lint probes write, and under a cell's DANGER about
    /// reading (`sees other users' rows`) they read as its evidence.
    private func probedWithoutConsequence(_ cell: String) -> [String] {
        let parts = cell.components(separatedBy: " · ")
        guard parts.count == 2, draft.plan.functions.contains(where: { $0.signature == parts[0] }),
              let persona = parts[1].split(separator: ":").first else { return [] }
        return draft.findings.findings.filter { !$0.isDanger && $0.subject == parts[0] }
            .flatMap { $0.consequence?.evidence ?? [] }
            .filter { $0.hasPrefix("\(persona) ") || $0.hasPrefix("\(persona)'s ") }
    }

    /// Requests the API would answer with an SQL error (a policy that recurses, a cast
    /// in a policy that fails): one line per relation or function and error, naming the
    /// probes that met it.
    public var errorLines: [String] {
        var errors: [(subject: String, observed: String, probes: [String])] = []
        for result in draft.report.results where result.observed.hasPrefix("error ") {
            let probe = "\(result.probe) as \(result.persona ?? "-")"
            if let index = errors.firstIndex(where: { $0.subject == result.subject && $0.observed == result.observed }) {
                errors[index].probes.append(probe)
            } else {
                errors.append((result.subject, result.observed, [probe]))
            }
        }
        return errors.map { "ERROR \($0.subject) · \($0.probes.joined(separator: ", ")): \($0.observed)" }
    }

    /// Refusals that come from a table the request reads indirectly, not from the
    /// relation itself (`permission denied for table users` on `public.invitations`: its
    /// read policy reads `auth.users`, which no API role may read on Supabase). The cell
    /// is what the API answers (refused), but every such request fails, the persona's
    /// own rows included: one WARN line per relation and table, naming the probes.
    public var indirectRefusalLines: [String] {
        var lines: [(subject: String, table: String, probes: [String], personas: [String])] = []
        // A signed-in persona's, on a table: anon has no own rows, and a view over a table
        // its role may not read is the view refusing, often by design.
        let signedIn = Set(draft.plan.personas.filter { $0.user != nil }.map(\.name))
        // (A drafted view has no sample.)
        let tables = Set(draft.plan.relations.filter { !$0.sample.isEmpty }.map(\.qualifiedName))
        for result in draft.report.results where signedIn.contains(result.persona ?? "") && tables.contains(result.subject) {
            // (The relation's own refusal names the relation.)
            guard let table = Self.deniedTable(in: result.observed),
                  table != String(result.subject.split(separator: ".").last ?? "") else { continue }
            let persona = result.persona ?? "-"
            if let index = lines.firstIndex(where: { $0.subject == result.subject && $0.table == table }) {
                if !lines[index].probes.contains(result.probe) { lines[index].probes.append(result.probe) }
                if !lines[index].personas.contains(persona) { lines[index].personas.append(persona) }
            } else {
                lines.append((result.subject, table, [result.probe], [persona]))
            }
        }
        return lines.map { line in
            let hint = line.table == "users" ? " (on Supabase, auth.users is not readable by anon or authenticated: "
                + "read what you need through a security definer function, or auth.jwt())" : ""
            return "WARN \(line.subject) · \(line.probes.joined(separator: ", ")) as \(line.personas.joined(separator: ", ")): refused by \"permission denied for table "
                + "\(line.table)\": what it reads (a policy, a view, a function they call) reads a table the role may not "
                + "read, so every such request fails, for the persona's own rows too\(hint)"
        }
    }

    /// The table a probe's observed refusal names (`denied (42501: permission denied for
    /// table users)`, a read's `none (permission denied for table users)`).
    static func deniedTable(in observed: String) -> String? {
        for marker in ["denied (42501: permission denied for table ", "none (permission denied for table "]
        where observed.hasPrefix(marker) {
            let rest = observed.dropFirst(marker.count)
            return rest.firstIndex(of: ")").map { String(rest[..<$0]) }
        }
        return nil
    }

    /// The line before the matrix: who was observed (signed-in personas left out are
    /// named, and `LintReport.signUpLines` says why).
    public var heading: String {
        let left = draft.leftOut.map(\.persona)
        let users = draft.plan.personas.filter { $0.user != nil }.map(\.name)
        let signedIn = users.isEmpty ? "" : "\(users.count == 2 ? "two signed-in users" : "signed-in user") (\(users.joined(separator: ", "))) and "
        let who = users.isEmpty ? "anon and service_role" : "anon, \(signedIn)service_role"
        return "no access plan (\(planFile)): what the database allows now, observed as \(who)"
            + (left.isEmpty ? "" : " (\(left.joined(separator: ", ")) left out: see LEFT OUT below)")
    }

    /// What the run did not observe: the project's policies on Supabase Storage's
    /// tables when the schemas leave out `storage` (one NOTE line per table).
    public var noteLines: [String] {
        // Policies reading claims the personas lack: their cells are what a user
        // without them gets (dev showed ✓ and "no dangers found", and said nothing).
        Self.groupedNotes(draft.claimNotes)
            + draft.storagePolicies.unobservedLines(schemas: draft.plan.schemas, planFile: planFile)
    }

    /// One NOTE line per distinct text, naming every table it is about: a hook's claim
    /// read by a dozen tables' policies made a dozen identical lines (round thirty-four).
    static func groupedNotes(_ notes: [String: String]) -> [String] {
        Dictionary(grouping: notes.keys.sorted()) { notes[$0]! }
            .map { text, tables in
                let said = tables.count == 1 || !text.hasPrefix("its policies ") ? text : "their policies " + text.dropFirst("its policies ".count)
                return "NOTE \(tables.joined(separator: ", ")): \(said)"
            }
            .sorted()
    }

    /// The line after it.
    public var nextStep: String {
        "start a plan from this: pgwarden plan draft --output \(planFile), review every DANGER, then pgwarden test"
    }

    /// What follows the matrix, in order: errors, dangers (with `sayingNoDangers`, "no
    /// dangers found" when there are none, limited to what was observed when there are
    /// errors), warnings, the personas left out, the notes and the next step.
    public func linesAfterMatrix(sayingNoDangers: Bool) -> [String] {
        let (dangers, errors) = (dangerLines, errorLines)
        let none = errors.isEmpty
            ? "no dangers found"
            : "no dangers found in what could be observed: what the ERROR lines name could not be, "
                + "and the API answers those requests with that error"
        return errors + indirectRefusalLines + (dangers.isEmpty && sayingNoDangers ? [none] : dangers)
            + draft.warningCells.map { "WARN " + $0 } + draft.findings.signUpLines + noteLines + [nextStep]
    }

    /// Heading, matrix, dangers, notes and the next step.
    public func render() -> String {
        var matrix = MatrixReport(draft.report)
        matrix.isObservation = true
        return ([heading, "", matrix.render(), ""] + linesAfterMatrix(sayingNoDangers: true)).joined(separator: "\n")
    }
}
