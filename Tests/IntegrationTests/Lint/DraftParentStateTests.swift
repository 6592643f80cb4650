import Foundation
import Testing
import WardenKit
import TestSupport

/// A child's write that asks its parent row to be in a state (`reviews` of a
/// `completed` order, `comments` on an open thread): the draft's setup left every
/// parent as its defaults made it (`pending`, closed), so each persona's insert of a
/// child was refused and drafted "none" (a marketplace's reviews; round thirty-eight).
@Suite struct DraftParentStateTests {
    static let orders = """
        create table public.products (id uuid primary key default gen_random_uuid(), title text not null);
        alter table public.products enable row level security;
        create policy "read products" on public.products for select using (true);
        create table public.orders (id uuid primary key default gen_random_uuid(),
          buyer_id uuid not null references auth.users (id) default auth.uid(),
          product_id uuid not null references public.products (id),
          status text not null default 'pending' check (status in ('pending', 'paid', 'completed', 'cancelled')));
        alter table public.orders enable row level security;
        create policy "own orders" on public.orders for select to authenticated using (buyer_id = auth.uid());
        create policy "pending orders" on public.orders for update to authenticated
          using (buyer_id = auth.uid() and status = 'pending');
        create table public.reviews (id uuid primary key default gen_random_uuid(),
          order_id uuid not null references public.orders (id),
          author_id uuid not null references auth.users (id) default auth.uid(),
          stars int not null check (stars between 1 and 5));
        alter table public.reviews enable row level security;
        create policy "read reviews" on public.reviews for select using (true);
        """

    /// Each persona gets one more order, completed, and its review names it: both may
    /// review their own completed order. Their other orders stay pending, so the update
    /// policy that reads the default state is still seen; and the check writing into
    /// ben's order picks his completed one, which ava's review would be refused for only
    /// because it is not hers.
    @Test func aReviewOfTheUsersCompletedOrder() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentstate", Self.orders + """
            create policy "review completed orders" on public.reviews for insert to authenticated
              with check (author_id = auth.uid() and exists (select 1 from public.orders o
                where o.id = order_id and o.buyer_id = auth.uid() and o.status = 'completed'));
            """)
        let reviews = try #require(draft.plan.relations.first { $0.name == "reviews" })
        let orders = try #require(draft.plan.relations.first { $0.name == "orders" })
        for persona in ["ava", "ben"] {
            #expect(reviews.access[persona]?.insert == .own, "\(persona): \(draft.yaml)")
            #expect(orders.access[persona]?.update == .own, "\(persona): \(draft.yaml)")
        }
        let check = try #require(draft.plan.checks.first { $0.name.hasPrefix("ava writes a public.reviews row into") })
        #expect(check.before?.contains("coalesce(p.status = 'completed', false) desc") == true, "\(draft.yaml)")
        #expect(check.expectation.sqlState == "42501", "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A boolean the child's policy tests as true through its parent (`t.is_open`).
    @Test func aCommentOnAnOpenThread() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentopen", """
            create table public.threads (id uuid primary key default gen_random_uuid(),
              author_id uuid not null references auth.users (id), title text not null, is_open boolean not null default false);
            alter table public.threads enable row level security;
            create policy "read threads" on public.threads for select using (true);
            create table public.comments (id uuid primary key default gen_random_uuid(),
              thread_id uuid not null references public.threads (id), author_id uuid not null references auth.users (id), body text);
            alter table public.comments enable row level security;
            create policy "read comments" on public.comments for select using (true);
            create policy "comment on open threads" on public.comments for insert to authenticated
              with check (author_id = auth.uid() and exists (select 1 from public.threads t where t.id = thread_id and t.is_open));
            """)
        let comments = try #require(draft.plan.relations.first { $0.name == "comments" })
        #expect(comments.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A state the child's policy refuses (`not exists (... o.status = 'cancelled')`) is
    /// no state to make: no parent row gets it.
    @Test func aRefusedStateIsNotMade() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentnotstate", Self.orders + """
            create policy "review orders not cancelled" on public.reviews for insert to authenticated
              with check (author_id = auth.uid() and not exists (select 1 from public.orders o
                where o.id = order_id and o.status = 'cancelled'));
            """)
        #expect(!draft.yaml.contains("'cancelled'"), "\(draft.yaml)")
        let reviews = try #require(draft.plan.relations.first { $0.name == "reviews" })
        #expect(reviews.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
