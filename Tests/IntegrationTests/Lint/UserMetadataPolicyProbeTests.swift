import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A policy reading `user_metadata`, which any signed-in user may set: ava forges the
/// value the policy itself compares with (`->> 'role') = 'admin'`), not only values from
/// the table's text columns. An invoices table has none: no value was tried, and the
/// finding was called HARMLESS while `role: admin` read every user's invoices. Where
/// there is no value at all to try, the finding is not probed, never harmless.
@Suite struct UserMetadataPolicyProbeTests {
    @Test func theValueThePolicyNamesIsTried() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("usermeta").project)
        try connection.execute(unsafeScript: """
            create table public.invoices (id bigint generated always as identity primary key,
              owner uuid not null default auth.uid() references auth.users, amount int not null);
            alter table public.invoices enable row level security;
            create policy "own or admin" on public.invoices for all to authenticated
              using (owner = auth.uid() or (auth.jwt() -> 'user_metadata' ->> 'role') = 'admin');
            insert into auth.users (id, email) values ('00000000-0000-0000-0000-00000000c0de', 'carol@example.com');
            insert into public.invoices (owner, amount) values ('00000000-0000-0000-0000-00000000c0de', 10);
            create table public.levels (id int primary key, rank int not null);
            alter table public.levels enable row level security;
            create policy "ranked" on public.levels for select to authenticated
              using (rank <= ((auth.jwt() -> 'user_metadata' ->> 'rank'))::int);
            insert into public.levels values (1, 1);
            """)
        let report = try Linter(connection: connection).run()
        let invoices = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.invoices" })
        #expect(invoices.isDanger, "\(invoices.consequence?.evidence ?? [])")
        #expect(invoices.consequence?.evidence.last
            == #"ava, after setting her own user_metadata to {"role":"admin"}, reads 1 row of public.invoices"#)

        let levels = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.levels" })
        #expect(levels.consequence?.verdict == .notProbed, "\(levels.consequence?.evidence ?? [])")
        #expect(levels.status != "harmless")
    }
}
