import Foundation
import Testing
@testable import WardenKit

/// The ownership branch of a drafted owner rule, as pg_get_expr spells policies: the one
/// top-level OR branch that calls auth.uid(); an OR inside parentheses or a string is no
/// branch; two branches calling auth.uid(), or none, keep the expression whole.
@Suite struct OwnerRuleBranchTests {
    @Test func aPublicBranchIsDropped() {
        #expect(OwnerRuleBranch.ownership(of: "((status = 'open'::text) OR (EXISTS ( SELECT 1 FROM public.m WHERE (m.user_id = auth.uid()))))")
                == "(EXISTS ( SELECT 1 FROM public.m WHERE (m.user_id = auth.uid())))")
        #expect(OwnerRuleBranch.ownership(of: "(is_active OR (org_id IN ( SELECT m.org_id FROM public.m WHERE (m.user_id = auth.uid()))))")
                == "(org_id IN ( SELECT m.org_id FROM public.m WHERE (m.user_id = auth.uid())))")
    }

    @Test func anOrInsideParenthesesOrAStringIsNoBranch() {
        let nested = "(EXISTS ( SELECT 1 FROM public.m WHERE ((m.user_id = auth.uid()) OR (m.role = 'admin'::text))))"
        #expect(OwnerRuleBranch.ownership(of: nested) == nested)
        let quoted = "((note = ' OR '::text) AND (owner = auth.uid()))"
        #expect(OwnerRuleBranch.ownership(of: quoted) == quoted)
    }

    /// A branch testing a column for NULL is the rows shared with every user, not
    /// ownership: `(team_id IS NULL) OR public.in_team(team_id)` is owned through
    /// `in_team`, and `team_id` is the shared rows' column.
    @Test func aNullTestIsTheSharedRowsNotOwnership() {
        let rule = "((team_id IS NULL) OR public.in_team(team_id))"
        #expect(OwnerRuleBranch.ownership(of: rule) == "public.in_team(team_id)")
        #expect(OwnerRuleBranch.nullTestedColumns(in: rule) == ["team_id"])
        #expect(OwnerRuleBranch.nullTestedColumns(in: #"(("Team" IS NULL) OR (owner = auth.uid()))"#) == ["Team"])
        #expect(OwnerRuleBranch.nullTestedColumns(in: "(team_id IS NULL)").isEmpty)
        #expect(OwnerRuleBranch.nullTestedColumns(in: "((team_id IS NOT NULL) OR (a = auth.uid()))").isEmpty)
    }

    @Test func twoOwningBranchesOrNoneKeepTheWhole() {
        let two = "((a = auth.uid()) OR (b = auth.uid()))"
        #expect(OwnerRuleBranch.ownership(of: two) == two)
        let none = "((a = 1) OR (b = 2))"
        #expect(OwnerRuleBranch.ownership(of: none) == none)
    }
}
