import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// What a definer function's call changed is what stays once it returns: a row it
/// inserted inside a `begin ... exception when others` block that then failed was
/// rolled back with the block, but `pg_stat_xact_user_tables` counts the attempt, and
/// lint said "inserted 1 row" (a coaching app's e-mail queue, round thirty-four).
@Suite struct LintRolledBackWriteTests {
    @Test func aWriteTheFunctionsOwnExceptionBlockRolledBackIsNoChange() throws {
        let (report, _) = try LintReport.linting("""
            create table public.outbox (id bigint generated always as identity primary key, body text not null);
            alter table public.outbox enable row level security;
            create table public.counters (id int primary key, hits int not null);
            alter table public.counters enable row level security;
            insert into public.counters values (1, 0);
            -- Queues a message, then fails to deliver it; the block undoes the queueing.
            create function public.queue_message(p_body text) returns boolean
            language plpgsql security definer set search_path = '' as $$
            begin
              begin
                insert into public.outbox (body) values (p_body);
                update public.counters set hits = hits + 1 where id = 1;
                raise exception 'delivery failed';
              exception when others then
                return false;
              end;
            end $$;
            -- The same insert where nothing undoes it.
            create function public.post_message(p_body text) returns void
            language plpgsql security definer set search_path = '' as $$
            begin
              insert into public.outbox (body) values (p_body);
            end $$;
            """)
        let undone = try report.anonCall("public.queue_message(text)")
        let evidence = undone.consequence?.evidence ?? []
        #expect(!undone.isDanger, "\(evidence)")
        #expect(evidence.first == "anon called public.queue_message('pgwarden'): succeeded, returned false or null, changed nothing",
                "\(evidence)")
        let kept = try report.anonCall("public.post_message(text)")
        #expect(kept.isDanger, "\(kept.consequence?.evidence ?? [])")
        #expect(kept.consequence?.evidence.first == "anon called public.post_message('pgwarden'): succeeded, inserted 1 row of public.outbox")
    }
}
