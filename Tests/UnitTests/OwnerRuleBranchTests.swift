import Foundation
import Testing
@testable import WardenKit

/// The ownership branch of a drafted owner rule, as pg_get_expr spells policies: the one
/// OR branch that calls auth.uid(), at the top level or inside parentheses; an OR inside
/// a string is no branch; two branches calling auth.uid(), or none, keep the expression whole.
@Suite struct OwnerRuleBranchTests {
    @Test func aPublicBranchIsDropped() {
        #expect(OwnerRuleBranch.ownership(of: "((status = 'open'::text) OR (EXISTS ( SELECT 1 FROM public.m WHERE (m.user_id = auth.uid()))))")
                == "(EXISTS ( SELECT 1 FROM public.m WHERE (m.user_id = auth.uid())))")
        #expect(OwnerRuleBranch.ownership(of: "(is_active OR (org_id IN ( SELECT m.org_id FROM public.m WHERE (m.user_id = auth.uid()))))")
                == "(org_id IN ( SELECT m.org_id FROM public.m WHERE (m.user_id = auth.uid())))")
    }

    @Test func anOrInsideAStringIsNoBranch() {
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

    /// Inside parentheses too: a child row is the persona's where its parent's author
    /// is, not where its parent is published.
    @Test func aPublicBranchInsideASubqueryIsDropped() {
        let rule = "(EXISTS ( SELECT 1 FROM public.articles a WHERE ((a.id = sections.article_id) AND (a.is_published OR (a.author_id = auth.uid())))))"
        #expect(OwnerRuleBranch.ownership(of: rule)
                == "(EXISTS ( SELECT 1 FROM public.articles a WHERE ((a.id = sections.article_id) AND (a.author_id = auth.uid()))))")
        let nested = "(EXISTS ( SELECT 1 FROM public.m WHERE ((m.user_id = auth.uid()) OR (m.role = 'admin'::text))))"
        #expect(OwnerRuleBranch.ownership(of: nested) == "(EXISTS ( SELECT 1 FROM public.m WHERE (m.user_id = auth.uid())))")
        let quoted = "(EXISTS ( SELECT 1 FROM t WHERE ((t.note = '(a OR b)'::text) AND (t.owner = auth.uid()))))"
        #expect(OwnerRuleBranch.ownership(of: quoted) == quoted)
    }

    /// An admin check OR'ed with a public branch inside a child's EXISTS names no column:
    /// the rule says who may, not whose the row is, so it is no ownership.
    @Test func anAdminCheckInsideASubqueryIsNoOwnership() {
        let rule = "(EXISTS ( SELECT 1 FROM public.articles a WHERE ((a.id = sections.article_id) AND ((a.status = 'published'::public.item_status) OR public.has_role(auth.uid(), 'admin'::public.app_role)))))"
        #expect(OwnerRuleBranch.ownership(of: rule) == nil)
        #expect(!OwnerRuleBranch.readsAColumn("public.has_role(auth.uid(), 'admin'::public.app_role)"))
        #expect(OwnerRuleBranch.readsAColumn("(a.author_id = auth.uid())"))
        #expect(OwnerRuleBranch.readsAColumn("(owner = ( SELECT auth.uid() AS uid))"))
    }

    @Test func twoOwningBranchesOrNoneKeepTheWhole() {
        let two = "((a = auth.uid()) OR (b = auth.uid()))"
        #expect(OwnerRuleBranch.ownership(of: two) == two)
        let none = "((a = 1) OR (b = 2))"
        #expect(OwnerRuleBranch.ownership(of: none) == none)
    }
}
