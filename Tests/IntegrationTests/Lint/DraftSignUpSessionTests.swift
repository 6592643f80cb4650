import Foundation
import Testing
import WardenKit
import TestSupport

/// A sign-up trigger path that reads the request's headers as json (an audit trigger
/// on profiles: `current_setting('request.headers', true)::json`), NULL in Supabase
/// Auth's own session. The draft's second run went on the session its first had used
/// as the personas, where the setting stays defined and empty: the cast failed (22P02),
/// the personas could not be signed up, and a ticketing app's `dev` stopped with exit 65
/// (round thirty-five). Each run of the draft's plan has a session of its own.
@Suite struct DraftSignUpSessionTests {
    @Test func aSignUpTriggerReadingTheRequestsHeadersSignsThePersonasUpOnEveryRun() throws {
        let draft = try DraftRealProjectShapesTests.draft("signupheaders", """
            create table public.profiles (id uuid primary key references auth.users on delete cascade, name text);
            alter table public.profiles enable row level security;
            create policy own on public.profiles for all to authenticated using (id = auth.uid()) with check (id = auth.uid());
            create table public.audit (id bigserial primary key, ip text);
            alter table public.audit enable row level security;
            create function public.audit_ip() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              insert into public.audit (ip)
              values (split_part(current_setting('request.headers', true)::json ->> 'x-forwarded-for', ',', 1));
              return null;
            end $$;
            create trigger profiles_audit after insert or update on public.profiles for each statement execute function public.audit_ip();
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = public as $$
            begin insert into public.profiles (id, name) values (new.id, new.email); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            """)
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
        let profiles = try #require(draft.plan.relations.first { $0.name == "profiles" })
        #expect(profiles.access["ava"]?.select == .own, "\(draft.yaml)")
    }
}
