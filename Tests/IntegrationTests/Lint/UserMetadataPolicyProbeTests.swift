import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A policy reading `user_metadata`, which any signed-in user may set: ava forges the
/// value the policy itself compares with (`->> 'role') = 'admin'`), not only values from
/// the table's text columns. An invoices table has none: no value was tried, and the
/// finding was called HARMLESS while `role: admin` read every user's invoices. So are
/// the values of a column the policy compares the key with (`org_id`), beside unrelated
/// text. Where there is no value at all to try, the finding is not probed, never harmless.
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
            create policy "beta" on public.levels for select to authenticated
              using (((auth.jwt() -> 'user_metadata') ->> 'beta') is not null);
            insert into public.levels values (1, 1);
            create table public.org_docs (id int primary key, org_id uuid not null, body text);
            alter table public.org_docs enable row level security;
            create policy "org" on public.org_docs for select to authenticated
              using (org_id = ((auth.jwt() -> 'user_metadata') ->> 'org_id')::uuid);
            insert into public.org_docs values (1, '00000000-0000-0000-0000-0000000000aa', 'minutes');
            """)
        let report = try Linter(connection: connection).run()
        let invoices = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.invoices" })
        #expect(invoices.isDanger, "\(invoices.consequence?.evidence ?? [])")
        #expect(invoices.consequence?.evidence.last
            == #"ava, after setting her own user_metadata to {"role":"admin"}, reads 1 row of public.invoices"#)

        // A uuid column the policy compares the key with, beside unrelated text: its values are tried.
        let docs = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.org_docs" })
        #expect(docs.consequence?.evidence.last
            == #"ava, after setting her own user_metadata to {"org_id":"00000000-0000-0000-0000-0000000000aa"}, reads 1 row of public.org_docs"#,
                "\(docs.consequence?.evidence ?? [])")

        let levels = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.levels" })
        #expect(levels.consequence?.verdict == .notProbed, "\(levels.consequence?.evidence ?? [])")
        #expect(levels.status != "harmless")
    }

    /// An insert policy trusting `user_metadata ->> 'platform'` (a mental-health app,
    /// round thirty-seven): reads showed nothing either way, and the finding was
    /// HARMLESS while any user could set `platform: mobile` and write. Ava's own row is
    /// now inserted with her metadata as it is (refused) and with the forged value.
    @Test func anInsertPolicyIsTriedWithTheForgedValue() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("usermetains").project)
        try connection.execute(unsafeScript: """
            create table public.check_ins (id uuid primary key default gen_random_uuid(),
              user_id uuid not null default auth.uid() references auth.users (id), mood int not null default 5);
            alter table public.check_ins enable row level security;
            create policy "read own" on public.check_ins for select to authenticated using (auth.uid() = user_id);
            create policy "mobile writes own" on public.check_ins for insert to authenticated
              with check (auth.uid() = user_id and auth.jwt() -> 'user_metadata' ->> 'platform' = 'mobile');
            grant select, insert on public.check_ins to authenticated;
            """)
        let report = try Linter(connection: connection).run()
        let finding = try #require(report.findings.first { $0.rule == .rlsReferencesUserMetadata && $0.subject == "public.check_ins" })
        #expect(finding.isDanger, "\(finding.consequence?.evidence ?? [])")
        #expect(finding.consequence?.evidence.last == #"ava, after setting her own user_metadata to {"platform":"mobile"}, inserted it"#,
                "\(finding.consequence?.evidence ?? [])")
        #expect(try connection.query("select count(*)::text from public.check_ins").scalar == "0")
    }
}
