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
        let (report, _) = try LintReport.linting("""
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
            """)
        let requests = try report.anonCall("public.update_support_request_status(uuid, text)")
        #expect(requests.isDanger, "\(requests.consequence?.evidence ?? [])")
        #expect(requests.consequence?.evidence.last == "anon called public.update_support_request_status("
            + "ava's public.support_requests row, 'open'): succeeded, returned true, updated 1 row of public.support_requests")
        let tickets = try report.anonCall("public.set_ticket_status(uuid, text)")
        #expect(tickets.isDanger, "\(tickets.consequence?.evidence ?? [])")
        #expect(tickets.consequence?.evidence.last == "anon called public.set_ticket_status(ava's public.tickets row, 'closed'): "
            + "succeeded, updated 1 row of public.tickets")
    }

    /// A text parameter the body looks a row up by (`select id into v from badges where
    /// code = p_code`): called with 'pgwarden', no badge matched, the function returned
    /// early, and anon awarding any user any badge stayed a WARN (a quest app's
    /// `grant_badge`, round thirty-five). It gets a value a row of that table holds, where
    /// a signed-in user may read it (a code kept from users is the key the call asks for:
    /// `aFixedAnswerForAKeyThereIsNotIsNoData`).
    @Test func aTextParameterALookupComparesGetsAStoredValue() throws {
        let (report, _) = try LintReport.linting("""
            create table public.badges (id uuid primary key default gen_random_uuid(), code text not null unique);
            insert into public.badges (code) values ('first_quest'), ('finisher');
            alter table public.badges enable row level security;
            create policy badges_read on public.badges for select to authenticated using (true);
            create table public.user_badges (user_id uuid not null references auth.users on delete cascade,
              badge_id uuid not null references public.badges on delete cascade, primary key (user_id, badge_id));
            alter table public.user_badges enable row level security;
            create policy own on public.user_badges for select to authenticated using (auth.uid() = user_id);
            create function public.grant_badge(p_user uuid, p_code text) returns boolean
            language plpgsql security definer set search_path = public as $$
            declare v uuid;
            begin
              select id into v from badges where code = p_code;
              if v is null then return false; end if;
              insert into user_badges (user_id, badge_id) values (p_user, v) on conflict do nothing;
              return found;
            end $$;
            """)
        let call = try report.anonCall("public.grant_badge(uuid, text)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.first == "anon called public.grant_badge(ava's id, 'first_quest'): succeeded, "
            + "returned true, inserted 1 row of public.user_badges")
    }
}
