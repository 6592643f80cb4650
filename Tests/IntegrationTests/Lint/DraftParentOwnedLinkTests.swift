import Testing
import WardenKit

/// A link table owned only through its parent (`letter_contacts (letter_id -> letters,
/// contact_id -> contacts)`, one policy: the letter is the user's): ava could link her
/// letter to ben's contact, and the app would then send her letter to ben's contact.
/// The draft tried a write into another user's row only from tables with an owner
/// column of their own, so `dev` said "no dangers found" (a letters app, round
/// thirty-six). Its other keys are now tried too, by insert and by moving an own link;
/// not a key naming a user (`added_by -> profiles`), which says who made the row.
@Suite struct DraftParentOwnedLinkTests {
    static func schema(linkCheck: String) -> String {
        """
        create table public.contacts (id uuid primary key default gen_random_uuid(),
          user_id uuid not null references auth.users (id), email text);
        create table public.letters (id uuid primary key default gen_random_uuid(),
          user_id uuid not null references auth.users (id), body text);
        create table public.profiles (id uuid primary key references auth.users (id), name text);
        alter table public.profiles enable row level security;
        create policy own_profile on public.profiles for all using (auth.uid() = id);
        create table public.letter_contacts (id uuid primary key default gen_random_uuid(),
          letter_id uuid not null references public.letters (id), contact_id uuid not null references public.contacts (id),
          added_by uuid not null references public.profiles (id));
        alter table public.contacts enable row level security;
        alter table public.letters enable row level security;
        alter table public.letter_contacts enable row level security;
        create policy own_contacts on public.contacts for all using (auth.uid() = user_id);
        create policy own_letters on public.letters for all using (auth.uid() = user_id);
        create policy own_links on public.letter_contacts for all
          using (exists (select 1 from public.letters l where l.id = letter_id and l.user_id = auth.uid()))
          with check (\(linkCheck));
        """
    }

    static let insert = "ava writes a public.letter_contacts row into a public.contacts row of ben's"
    static let move = "ava moves a public.letter_contacts row of ava's into a public.contacts row of ben's"

    @Test func aLinkNamingAnotherUsersContactIsTried() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentownedlink", Self.schema(linkCheck: """
            exists (select 1 from public.letters l where l.id = letter_id and l.user_id = auth.uid())
            """))
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: Self.insert,
            danger: "public.letter_contacts · ava: a signed-in user may write public.letter_contacts rows into other users' public.contacts rows")
        #expect(draft.plan.checks.contains { $0.name == Self.move }, "\(draft.yaml)")
        // A key naming a user (who added the link) is not a row written into.
        #expect(!draft.plan.checks.contains { $0.name.contains("public.profiles row") }, "\(draft.yaml)")
        #expect(draft.dangerCells.filter { $0.hasPrefix("public.letter_contacts") }.count == 1, "\(draft.dangerCells)")
        #expect(!draft.dangerCells.contains { $0.contains("public.letters rows") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A policy that checks the contact too refuses both: kept as refused, no DANGER.
    @Test func aPolicyCheckingTheContactRefusesIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentownedlinkchecked", Self.schema(linkCheck: """
            exists (select 1 from public.letters l where l.id = letter_id and l.user_id = auth.uid())
              and exists (select 1 from public.contacts c where c.id = contact_id and c.user_id = auth.uid())
            """))
        let insert = try #require(draft.plan.checks.first { $0.name == Self.insert }, "\(draft.yaml)")
        #expect(insert.expectation.sqlState == "42501", "\(draft.yaml)")
        #expect(draft.plan.checks.contains { $0.name == Self.move }, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.hasPrefix("public.letter_contacts") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
