/// One relation's or function's NOTEs in a drafted plan, each written once: a note
/// several personas' cells share goes above the cells with their names
/// (`# NOTE (ava, ben): ...`, `(every persona)` when all share it); a note of one
/// persona's stays beside its cell (`# NOTE: ...`). Probes that cannot be probed for
/// one reason are named in one note (`update own row, delete own row: cannot probe:
/// ...`). A table whose setup row was refused had the same long reason on every
/// probe of every cell: 121 NOTE lines for 52 notes on one real project, 19 now.
struct CellNotes {
    /// The notes two or more personas share, in the order they first appear, with
    /// those personas in the plan's order.
    let shared: [(note: String, personas: [String])]
    /// Persona -> its notes no other persona has.
    let own: [String: [String]]
    private let personaCount: Int

    /// `byPersona`: persona -> its cell's notes; `personas`: the plan's, in order.
    init(_ byPersona: [String: [String]], personas: [String]) {
        var order: [String] = []
        var holders: [String: [String]] = [:]
        for persona in personas {
            for note in byPersona[persona] ?? [] where holders[note]?.last != persona {
                if holders[note] == nil { order.append(note) }
                holders[note, default: []].append(persona)
            }
        }
        // Notes of one set of personas, merged where one reason stops several probes.
        var groups: [[String]] = []
        var notesOf: [[String]: [String]] = [:]
        for note in order {
            let group = holders[note] ?? []
            if notesOf[group] == nil { groups.append(group) }
            notesOf[group, default: []].append(note)
        }
        var shared: [(note: String, personas: [String])] = []
        var own: [String: [String]] = [:]
        for group in groups {
            let notes = Self.merged(notesOf[group] ?? [])
            if group.count > 1 { shared += notes.map { ($0, group) } } else if let persona = group.first { own[persona] = notes }
        }
        self.shared = shared
        self.own = own
        personaCount = personas.count
    }

    /// The shared notes' comment lines.
    func sharedLines(indent: String) -> [String] {
        shared.map { note, personas in
            let who = personas.count == personaCount ? "every persona" : personas.joined(separator: ", ")
            return "\(indent)# NOTE (\(who)): \(note)"
        }
    }

    private static let cannotProbe = ": cannot probe: "

    /// `notes`, those of the form `probe: cannot probe: reason` with one reason made one
    /// (`probe, probe: cannot probe: reason`), where the first of them was.
    static func merged(_ notes: [String]) -> [String] {
        var result: [String] = []
        var probes: [String: [String]] = [:]
        for note in notes {
            guard let split = note.range(of: cannotProbe) else { result.append(note); continue }
            let reason = String(note[split.lowerBound...])
            if probes[reason] == nil { result.append(reason) }
            probes[reason, default: []].append(String(note[..<split.lowerBound]))
        }
        return result.map { entry in probes[entry].map { $0.joined(separator: ", ") + entry } ?? entry }
    }
}
