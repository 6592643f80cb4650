import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A security definer function anon may call that returns rows only of tables anon
/// reads whole itself (a shop's `list_categories()` over `categories`, which every
/// visitor selects directly): a DANGER whose advice, revoke it from anon, broke the
/// app's pages (round thirty-eight). Where anon reads less of the table itself, the
/// call hands it the rest: still a DANGER.
@Suite struct DefinerCatalogFunctionTests {
    static func catalogue(_ anonReads: String) -> String {
        """
        create table public.categories (id uuid primary key default gen_random_uuid(), name text not null,
          active boolean not null default true);
        insert into public.categories (name, active) values ('Phones', true), ('Cars', false);
        alter table public.categories enable row level security;
        create policy "read" on public.categories for select to anon, authenticated using (\(anonReads));
        create function public.list_categories() returns setof public.categories
          language sql stable security definer set search_path = '' as $$ select * from public.categories order by name $$;
        revoke all on function public.list_categories() from public;
        grant execute on function public.list_categories() to anon, authenticated;
        """
    }

    static func finding(_ name: String, _ schema: String) throws -> LintFinding {
        let connection = try Connection(try TestCluster.newTwinDatabase(name).project)
        try connection.execute(unsafeScript: schema)
        let report = try Linter(connection: connection).run()
        return try #require(report.findings.first { $0.rule == .anonSecurityDefinerFunctionExecutable }, "\(report.findings)")
    }

    @Test func rowsAnonReadsWholeItselfAreNothingHandedOver() throws {
        let finding = try Self.finding("definercatalogue", Self.catalogue("true"))
        #expect(!finding.isDanger, "\(finding.consequence?.evidence ?? [])")
        #expect(finding.consequence?.verdict == .harmless)
        #expect(finding.consequence?.evidence.last?.hasSuffix("it read only public.categories, every row of which anon reads itself") == true,
                "\(finding.consequence?.evidence ?? [])")
    }

    @Test func rowsAnonCannotReadItselfAreHandedOver() throws {
        let finding = try Self.finding("definercataloguehidden", Self.catalogue("active"))
        #expect(finding.isDanger, "\(finding.consequence?.evidence ?? [])")
    }
}
