import Foundation
import Testing
import WardenKit
import TestSupport

/// A custom access token hook that lifts `user_metadata.platform` (which any user sets
/// with `updateUser`) into a `platform` claim, and an insert policy trusting the claim
/// (a mental-health app, round thirty-seven): `dev` and `lint` said nothing, and the
/// insert cell was `none`. pgwarden's own rule `access_token_hook_reads_user_metadata`
/// calls the hook with a forged value: proven where a claim a policy reads changes; a
/// hook reading only the roles table is not flagged; one whose derived claim no policy
/// reads stays a WARN.
@Suite struct HookUserMetadataTests {
    static func schema(hookBody: String) -> String {
        """
        create table public.user_roles (user_id uuid primary key references auth.users on delete cascade, role text not null);
        alter table public.user_roles enable row level security;
        create policy "auth admin reads roles" on public.user_roles for select to supabase_auth_admin using (true);
        grant select on public.user_roles to supabase_auth_admin;
        create function public.custom_access_token_hook(event jsonb) returns jsonb language plpgsql stable as $$
        begin
          \(hookBody)
        end $$;
        grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
        revoke execute on function public.custom_access_token_hook(jsonb) from authenticated, anon, public;
        create table public.check_ins (id uuid primary key default gen_random_uuid(),
          user_id uuid not null default auth.uid() references auth.users (id), mood int not null default 5);
        alter table public.check_ins enable row level security;
        create policy "read own" on public.check_ins for select to authenticated using (auth.uid() = user_id);
        create policy "mobile writes own" on public.check_ins for insert to authenticated
          with check (auth.uid() = user_id and auth.jwt() ->> 'platform' = 'mobile');
        grant select, insert on public.check_ins to authenticated;
        """
    }

    static let fromMetadata = """
        if event #>> '{claims,user_metadata,platform}' = 'mobile' then
            return jsonb_set(event, '{claims,platform}', '"mobile"');
          end if;
          return event;
        """

    private func lint(_ name: String, hookBody: String) throws -> LintReport {
        let connection = try Connection(try TestCluster.newTwinDatabase(name).project)
        try connection.execute(unsafeScript: Self.schema(hookBody: hookBody))
        var linter = Linter(connection: connection)
        linter.api = ProjectAPISettings(
            exposedSchemas: ["public"],
            accessTokenHook: AccessTokenHook(schema: "public", function: "custom_access_token_hook", origin: "config.toml:1"))
        return try linter.run()
    }

    @Test func aClaimTheHookTakesFromUserMetadataIsTheUsersToChoose() throws {
        let report = try lint("hookusermeta", hookBody: Self.fromMetadata)
        let finding = try #require(report.findings.first { $0.rule == .accessTokenHookReadsUserMetadata }, "\(report.findings.map(\.rule))")
        #expect(finding.subject == "public.custom_access_token_hook(jsonb)")
        #expect(finding.detail.contains("reads user_metadata (platform), which every signed-in user may set"), "\(finding.detail)")
        #expect(finding.isDanger, "\(finding.consequence?.evidence ?? [])")
        #expect(finding.consequence?.evidence == [
            #"the hook, given ava's user_metadata as {"platform":"mobile"}, issued platform: "mobile" (with her own: platform: null)"#,
            "the policies of public.check_ins read platform",
        ])
    }

    @Test func aHookReadingOnlyATableIsNotFlagged() throws {
        let report = try lint("hooktable", hookBody: """
            return jsonb_set(event, '{claims,platform}', coalesce((select to_jsonb(role) from public.user_roles
                where user_id = (event ->> 'user_id')::uuid), 'null'));
            """)
        #expect(!report.findings.contains { $0.rule == .accessTokenHookReadsUserMetadata })
    }

    /// The hook copies a metadata key into a claim no policy reads: the user still
    /// chooses it, and the app's own code may trust it, so it stays a WARN, not harmless.
    @Test func aDerivedClaimNoPolicyReadsIsAWarning() throws {
        let report = try lint("hookunread", hookBody: """
            if event #>> '{claims,user_metadata,theme}' = 'dark' then
                return jsonb_set(event, '{claims,theme}', '"dark"');
              end if;
              return event;
            """)
        let finding = try #require(report.findings.first { $0.rule == .accessTokenHookReadsUserMetadata })
        #expect(!finding.isDanger)
        #expect(finding.status == "warn", "\(finding.consequence?.evidence ?? [])")
        #expect(finding.consequence?.evidence.first?.contains("issued other theme; no policy reads it") == true,
                "\(finding.consequence?.evidence ?? [])")
    }
}
