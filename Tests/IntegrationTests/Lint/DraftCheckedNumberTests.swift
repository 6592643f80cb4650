import Testing
@testable import WardenKit

/// Owner-only tables whose values a check bounds: a number outside `1` (`check (level
/// between 40 and 300)`, a health log's blood pressure) and a month as text (`month ~
/// '^\d{4}-\d{2}$'`, a usage counter). The draft's 1 and 'Draft month' were refused,
/// every setup row with them, and 18 cells of each table went unprobed (round
/// thirty-four). The server now picks a value the checks accept.
@Suite struct DraftCheckedNumberTests {
    @Test func boundedNumbersAndMonthKeysGetValuesTheirChecksAccept() throws {
        let draft = try DraftRealProjectShapesTests.draft("checkednumber", #"""
            create table public.readings (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users (id),
              level int not null check (level between 40 and 300), dose numeric not null check (dose >= 0.5 and dose < 10));
            create table public.counters (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users (id),
              month text not null check (month ~ '^\d{4}-\d{2}$'), used int not null default 0, unique (user_id, month));
            alter table public.readings enable row level security;
            alter table public.counters enable row level security;
            create policy readings_own on public.readings for all using (auth.uid() = user_id) with check (auth.uid() = user_id);
            create policy counters_own on public.counters for all using (auth.uid() = user_id) with check (auth.uid() = user_id);
            """#)
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        for name in ["readings", "counters"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.access["ava"] == own, "\(name)")
            #expect(relation.access["ben"] == own, "\(name)")
        }
        let readings = try #require(draft.plan.relations.first { $0.name == "readings" })
        #expect(readings.sample.first { $0.column == "level" }?.expression == "40")
        #expect(readings.sample.first { $0.column == "dose" }?.expression == "1")
        #expect(!draft.yaml.contains("cannot probe"))
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    @Test func wholeNumbersAreReadFromACheck() {
        #expect(DraftCheckedNumber.candidates(in: ["((level >= 40) AND (level <= 300))"]) == ["1", "40", "41", "300", "301"])
        #expect(DraftCheckedNumber.wholeNumbers(in: "((x2 > 0.5) AND (y > '-3'::integer))") == [-3])
    }
}
