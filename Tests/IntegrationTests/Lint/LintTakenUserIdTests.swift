import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A definer function that makes a confirmed account with an id and e-mail the caller
/// chooses (and a password the caller knows): lint called it with ava's id and e-mail,
/// which are taken (23505), then with NULLs (23502), and anon making accounts was a
/// WARN with "no dangers found" (a campus social network, round thirty-five).
@Suite struct LintTakenUserIdTests {
    @Test func aCallRefusedForATakenIdIsTriedWithANewOne() throws {
        let (report, connection) = try LintReport.linting("""
            create function public.open_account(p_id uuid, p_email text) returns uuid
            language plpgsql security definer set search_path = '' as $$
            begin
              insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, created_at, updated_at)
              values ('00000000-0000-0000-0000-000000000000', p_id, 'authenticated', 'authenticated', p_email,
                      now(), now(), now());
              return p_id;
            end $$;
            """)
        let call = try report.anonCall("public.open_account(uuid, text)")
        let evidence = call.consequence?.evidence ?? []
        #expect(call.isDanger, "\(evidence)")
        #expect(evidence.first?.hasPrefix("anon called public.open_account(ava's id, ava's e-mail): failed, 23505 ") == true,
                "\(evidence)")
        #expect(evidence.dropFirst().first == "anon called public.open_account(a new id, a new e-mail): succeeded, "
            + "returned 1 row (read no table), inserted 1 row of auth.users", "\(evidence)")
        // The account made was rolled back with the call.
        #expect(try connection.query("select count(*)::text from auth.users where email = 'someone.new@example.com'").scalar == "0")
    }
}
