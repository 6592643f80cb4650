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

    @Test func twoOwningBranchesOrNoneKeepTheWhole() {
        let two = "((a = auth.uid()) OR (b = auth.uid()))"
        #expect(OwnerRuleBranch.ownership(of: two) == two)
        let none = "((a = 1) OR (b = 2))"
        #expect(OwnerRuleBranch.ownership(of: none) == none)
    }
}
