import Testing
@testable import WardenKit

/// A drafted plan's NOTEs, each once: shared ones above the cells with their personas.
@Suite struct CellNotesTests {
    private let personas = ["anon", "ava", "ben", "service"]

    @Test func aNoteEveryPersonaHasIsWrittenOnceForEveryPersona() {
        let empty = "select: cannot probe: public.app_settings has no rows at all"
        let notes = CellNotes(Dictionary(uniqueKeysWithValues: personas.map { ($0, [empty]) }), personas: personas)
        #expect(notes.sharedLines(indent: "  ") == ["  # NOTE (every persona): \(empty)"])
        #expect(notes.own.isEmpty)
    }

    @Test func aNoteOfSomePersonasNamesThemAndOneOfOnePersonaStaysByItsCell() {
        let notes = CellNotes([
            "anon": ["update a user's row: cannot probe", "select: no rows"],
            "ava": ["select: no rows", "update own row: cannot probe"],
            "ben": ["select: no rows", "update own row: cannot probe", "update own row: cannot probe"],
        ], personas: personas)
        #expect(notes.sharedLines(indent: "") == [
            "# NOTE (anon, ava, ben): select: no rows",
            "# NOTE (ava, ben): update own row: cannot probe",
        ])
        #expect(notes.own == ["anon": ["update a user's row: cannot probe"]])
    }

    @Test func probesStoppedForOneReasonAreOneNote() {
        let reason = ": cannot probe: there is no such row in public.t (the draft's setup row was refused)"
        let notes = CellNotes([
            "anon": ["update a user's row" + reason, "delete a user's row" + reason],
            "ava": ["update own row" + reason, "its own note", "delete own row" + reason, "select: cannot probe: no rows"],
        ], personas: personas)
        #expect(notes.sharedLines(indent: "").isEmpty)
        #expect(notes.own == [
            "anon": ["update a user's row, delete a user's row" + reason],
            "ava": ["update own row, delete own row" + reason, "its own note", "select: cannot probe: no rows"],
        ])
    }
}
