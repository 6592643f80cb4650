import Foundation
import Testing
@testable import WardenKit

/// The values a column's check constraint lists, as pg_get_expr prints the check: only a
/// check that compares the column itself lists values of the column. A function of the
/// column (`jsonb_typeof(value) in ('object', 'array')`, as GrainMuse/frontend and
/// LuizJarduli/eco-wallet write it) lists values of the function, and an insert that gave
/// the column one of them was refused (22P02, invalid input syntax for type json).
@Suite struct DraftCheckListTests {
    @Test func aCheckOnTheColumnListsItsValues() {
        #expect(DraftCheckList.values("(status = ANY (ARRAY['active'::text, 'canceled'::text]))", column: "status")
                == ["active", "canceled"])
        #expect(DraftCheckList.values("((kind)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[]))", column: "kind")
                == ["a", "b"])
        #expect(DraftCheckList.values("(\"Kind\" = 'it''s'::text)", column: "Kind") == ["it's"])
    }

    /// As `supabase db dump` writes a varchar column's list: each literal cast twice
    /// (round thirty-nine: every chat message unprobed).
    @Test func aDumpsTwiceCastListIsAList() {
        #expect(DraftCheckList.values(
            "(((role)::text = ANY (ARRAY[('user'::character varying)::text, ('assistant'::character varying)::text])))",
            column: "role") == ["user", "assistant"])
        #expect(DraftCheckList.values("(((role)::text = ('user'::character varying)::text))", column: "role") == ["user"])
    }

    @Test func aCheckOnAFunctionOfTheColumnListsNothing() {
        #expect(DraftCheckList.values("(jsonb_typeof(value) = ANY (ARRAY['object'::text, 'array'::text]))", column: "value") == nil)
        #expect(DraftCheckList.values("(jsonb_typeof(probabilities) = 'object'::text)", column: "probabilities") == nil)
        #expect(DraftCheckList.values("(lower(status) = 'active'::text)", column: "status") == nil)
        #expect(DraftCheckList.allowed(by: ["(jsonb_typeof(value) = 'object'::text)"], column: "value") == nil)
    }

    @Test func aCheckOnAnotherColumnListsNothing() {
        #expect(DraftCheckList.values("(state = 'open'::text)", column: "status") == nil)
    }
}
