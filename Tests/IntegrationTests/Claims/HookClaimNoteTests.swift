import Foundation
import Testing
import WardenKit
import TestSupport

/// A custom access token hook issuing `user_role` from a table, and policies gating a
/// table on it through a helper (`has_role('dispatcher')`): the draft's personas got the
/// role no rule names ('carrier'), so every cell of the dispatchers' table was `none`,
/// and "no dangers found" said nothing of the users who hold the role (a recycling
/// logistics app). A NOTE now names the claim and what each persona was issued.
@Suite struct HookClaimNoteTests {
    static let schema = """
        create type public.app_role as enum ('dispatcher', 'carrier');
        create table public.user_roles (user_id uuid primary key references auth.users on delete cascade,
          role public.app_role not null);
        alter table public.user_roles enable row level security;
        create policy "auth admin reads roles" on public.user_roles for select to supabase_auth_admin using (true);
        grant select on public.user_roles to supabase_auth_admin;
        create function public.custom_access_token_hook(event jsonb) returns jsonb language plpgsql stable as $$
        declare r public.app_role;
        begin
          select role into r from public.user_roles where user_id = (event ->> 'user_id')::uuid;
          return jsonb_set(event, '{claims,user_role}', coalesce(to_jsonb(r), 'null'));
        end $$;
        grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
        revoke execute on function public.custom_access_token_hook(jsonb) from authenticated, anon, public;
        create function public.has_role(wanted public.app_role) returns boolean language sql stable as $$
          select (auth.jwt() ->> 'user_role') = wanted::text
        $$;
        create table public.rounds (id bigint generated always as identity primary key, label text not null);
        alter table public.rounds enable row level security;
        create policy "dispatchers manage rounds" on public.rounds for all to authenticated
          using (public.has_role('dispatcher')) with check (public.has_role('dispatcher'));
        insert into public.rounds (label) values ('monday');
        """

    static func draft(_ name: String, _ schema: String) throws -> PlanDraft {
        let connection = try Connection(try TestCluster.newTwinDatabase(name).project)
        try connection.execute(unsafeScript: schema)
        let api = ProjectAPISettings(
            exposedSchemas: ["public"],
            accessTokenHook: AccessTokenHook(schema: "public", function: "custom_access_token_hook", origin: "config.toml:1"))
        return try PlanDrafter(connection: connection, api: api).draft()
    }

    @Test func aTableNoPersonaIsLetIntoByTheHooksClaimIsNoted() throws {
        let draft = try Self.draft("hookclaimnote", Self.schema)
        let note = try #require(draft.claimNotes["public.rounds"], "\(draft.claimNotes)")
        #expect(note.hasPrefix(#"its policies read the token's user_role (ava: "carrier", ben: "carrier"), which the project's custom access token hook issues"#),
                "\(note)")
        #expect(draft.yaml.contains("no signed-in persona may do anything here"), "\(draft.yaml)")
        #expect(draft.verified)
    }

    /// A persona the rules let in (the hook issues 'dispatcher' to every user) needs no note.
    @Test func aTableThePersonasMayUseNeedsNoNote() throws {
        let draft = try Self.draft("hookclaimused", Self.schema.replacingOccurrences(
            of: "return jsonb_set(event, '{claims,user_role}', coalesce(to_jsonb(r), 'null'));",
            with: "return jsonb_set(event, '{claims,user_role}', '\"dispatcher\"');"))
        #expect(draft.claimNotes["public.rounds"] == nil, "\(draft.claimNotes)")
        #expect(draft.plan.relations.first { $0.name == "rounds" }?.access["ava"]?.select == .all, "\(draft.yaml)")
    }
}
