import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Arguments that reach a real row of what a definer function changes (a services
/// marketplace's support requests and tickets, round thirty-five): a parameter named
/// by the last word of its table's name (`p_request_id`, `support_requests`), and a
/// text parameter the body writes into a column whose check lists its values (called
/// with 'pgwarden', the check refused the update). Both stayed WARNs though anon could
/// change any client's row.
@Suite struct LintRowArgumentTests {
    @Test func aRowOfTheTableNamedByTheParametersLastWordAndAValueTheCheckAllows() throws {
        let files = try MigrationFolder(["20240101000000_schema.sql": """
            create table public.support_requests (id uuid primary key default gen_random_uuid(),
              client_id uuid not null default auth.uid() references auth.users, status text not null default 'open');
            alter table public.support_requests enable row level security;
            create policy own_read on public.support_requests for select to authenticated using (client_id = auth.uid());
            create policy own_insert on public.support_requests for insert to authenticated with check (client_id = auth.uid());
            create function public.update_support_request_status(p_request_id uuid, p_new_status text) returns boolean
            language plpgsql security definer set search_path = '' as $$
            begin
              update public.support_requests set status = p_new_status where id = p_request_id;
              return true;
            end $$;
            create table public.tickets (id uuid primary key default gen_random_uuid(),
              client_id uuid not null default auth.uid() references auth.users,
              status text not null default 'open' check (status in ('open', 'resolved', 'closed')));
            alter table public.tickets enable row level security;
            create policy own_read on public.tickets for select to authenticated using (client_id = auth.uid());
            create policy own_insert on public.tickets for insert to authenticated with check (client_id = auth.uid());
            create function public.set_ticket_status(p_ticket_id uuid, p_status text) returns void
            language plpgsql security definer set search_path = '' as $$
            begin
              update public.tickets set status = p_status where id = p_ticket_id;
            end $$;
            """])
        let report = try withExtendedLifetime(files) {
            let folder = URL(fileURLWithPath: files.path)
            let connection = try ElectricRide.database(migrations: folder, seeded: false)
            return try Linter(connection: connection).run(migrations: folder)
        }
        let requests = try report.anonCall("public.update_support_request_status(uuid, text)")
        #expect(requests.isDanger, "\(requests.consequence?.evidence ?? [])")
        #expect(requests.consequence?.evidence.last == "anon called public.update_support_request_status("
            + "ava's public.support_requests row, 'pgwarden'): succeeded, returned true, updated 1 row of public.support_requests")
        let tickets = try report.anonCall("public.set_ticket_status(uuid, text)")
        #expect(tickets.isDanger, "\(tickets.consequence?.evidence ?? [])")
        #expect(tickets.consequence?.evidence.last == "anon called public.set_ticket_status(ava's public.tickets row, 'closed'): "
            + "succeeded, updated 1 row of public.tickets")
    }
}
