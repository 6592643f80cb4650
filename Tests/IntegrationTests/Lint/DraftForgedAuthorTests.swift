import Foundation
import Testing
import WardenKit
import TestSupport

/// A row naming two users, inserted in the name of one (`sender = auth.uid()`) and
/// updated by the other (`recipient = auth.uid()`): the recipient may rewrite the
/// sender ("ben asked ava, accepted"; a workout app's friend requests, round
/// thirty-eight). The draft's rows name the persona in both columns, so no probe tried it.
@Suite struct DraftForgedAuthorTests {
    static func requests(update: String, extra: String = "") -> String {
        """
        create table public.requests (id uuid primary key default gen_random_uuid(),
          sender uuid not null references auth.users (id), recipient uuid not null references auth.users (id),
          accepted boolean not null default false);
        alter table public.requests enable row level security;
        create policy "read" on public.requests for select to authenticated using (sender = auth.uid() or recipient = auth.uid());
        create policy "send" on public.requests for insert to authenticated with check (sender = auth.uid());
        create policy "answer" on public.requests for update to authenticated \(update);
        \(extra)
        """
    }

    static let name = "ava sets sender to ben in a public.requests row whose recipient is ava"

    @Test func theRecipientRewritesTheSender() throws {
        let draft = try DraftRealProjectShapesTests.draft("forgedsender", Self.requests(update: "using (recipient = auth.uid())"))
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: Self.name, danger: "public.requests · ava: a signed-in user may set sender, which an insert must give")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Either user may update (the recipient marks it read): the recipient's branch lets
    /// the sender be rewritten just the same.
    @Test func eitherUsersUpdateLetsTheRecipientRewriteTheSender() throws {
        let draft = try DraftRealProjectShapesTests.draft(
            "forgedeither", Self.requests(update: "using (sender = auth.uid() or recipient = auth.uid())"))
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: Self.name, danger: "public.requests · ava: a signed-in user may set sender")
    }

    /// A trigger that keeps the sender: the check is kept as refused, and no DANGER.
    @Test func aTriggerKeepingTheSenderRefusesIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("forgedguarded", Self.requests(
            update: "using (recipient = auth.uid())", extra: """
            create function public.keep_sender() returns trigger language plpgsql set search_path = '' as $$
            begin
              if new.sender is distinct from old.sender then raise exception 'the sender cannot change'; end if;
              return new;
            end $$;
            create trigger keep_sender before update on public.requests for each row execute function public.keep_sender();
            """))
        let check = try #require(draft.plan.checks.first { $0.name == Self.name }, "\(draft.yaml)")
        #expect(check.expectation.sqlState == "P0001", "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("may set sender") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Only `accepted` is the user's to update (a column grant): nothing to try.
    @Test func aColumnGrantLeavesNothingToTry() throws {
        let draft = try DraftRealProjectShapesTests.draft("forgedgrant", Self.requests(
            update: "using (recipient = auth.uid())",
            extra: "revoke update on public.requests from authenticated; grant update (accepted) on public.requests to authenticated;"))
        #expect(!draft.plan.checks.contains { $0.name == Self.name }, "\(draft.yaml)")
    }
}
