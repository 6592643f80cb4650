import Foundation
import Testing
import WardenKit
import TestSupport

/// Migrations written for Supabase, applied as Supabase applies them: as `postgres`,
/// not a superuser. What works there works on the twin; what Supabase refuses for
/// privileges, the twin refuses with the same SQLSTATE.
@Suite struct TwinMigrationTests {
    static let supabaseStyle = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/SupabaseStyle/migrations").path

    /// Runs `sql` as postgres on a fresh twin and returns the server's error, if any.
    private func asPostgres(_ sql: String, on project: ConnectionSettings? = nil) throws -> PGError? {
        let connection = try Connection(project ?? TestCluster.newTwinDatabase("privs").project)
        do {
            try connection.execute(unsafeScript: sql)
            return nil
        } catch let error as PGError {
            return error
        }
    }

    /// supabase/dbdev's `app.simulate_login` pattern, as postgres on the twin: a role
    /// set locally inside the author's BEGIN/COMMIT ends at its COMMIT. Read as that
    /// role, pg_settings hides the settings only superusers and pg_read_all_settings
    /// may read, so those must not count as changed and be set back (postgres may not
    /// set dynamic_library_path: 42501 at the COMMIT, before).
    @Test func aRoleSetLocallyInsideTheAuthorsPairEndsAtItsCommit() throws {
        let project = try TestCluster.newTwinDatabase("login").project
        let folder = try MigrationFolder([
            "20240101000000_login.sql": """
                create table public.before_begin as select current_setting('log_min_messages') as level;
                begin;
                set local log_min_messages = 'debug1';
                set local role authenticated;
                select set_config('request.jwt.claims', '{"sub": "x"}', true);
                commit;
                create table public.after_commit as select current_setting('log_min_messages') as level;
                """,
        ])
        let run = try Migrator.open(folder: folder.path, settings: project).up()
        #expect(run.steps.count == 1)
        let connection = try Connection(project)
        #expect(try connection.query("select tableowner::text from pg_tables where tablename = 'after_commit'").scalar
                == "postgres")
        // A setting the pair set before its role change ends at the COMMIT too.
        #expect(try connection.query("select (a.level = b.level)::text from public.after_commit a, public.before_begin b").scalar
                == "true")
    }

    @Test func aSupabaseStyleFolderAppliesAsPostgresAndBehaves() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("style")
        let run = try Migrator.open(folder: Self.supabaseStyle, settings: project).up()
        #expect(run.steps.count == 5)
        let connection = try Connection(project)
        #expect(try connection.query("select rolsuper::text from pg_roles where rolname = current_user").scalar == "false")

        // Sign-up makes a profile (the trigger on auth.users belongs to postgres's function).
        let user = "3d1f3a4e-6a55-4d0e-8a5c-0f4b8d2f7a10"
        try connection.query(
            """
            insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
            values (\(user)::uuid, 'authenticated', 'authenticated', 'mira@example.com', '{"avatar_url":"a.png"}', now(), now())
            """)
        #expect(try connection.query("select avatar_url from public.profiles where id = \(user)::uuid").scalar == "a.png")

        // Extensions resolve from the extensions schema, qualified and bare.
        let invite = try connection.query(
            "insert into public.invites (email, created_by) values ('x@example.com', \(user)::uuid) returning length(token)::text, id::text").rows.first ?? []
        #expect(invite.first == "32")
        // The realtime publication now carries messages.
        #expect(try connection.query(
            "select string_agg(tablename, ',') from pg_publication_tables where pubname = 'supabase_realtime'").scalar == "messages")
        // The auth server may call the hook; API roles may not.
        #expect(try connection.query(
            """
            select has_function_privilege('supabase_auth_admin', 'public.custom_access_token_hook(jsonb)', 'execute')::text
                || has_function_privilege('authenticated', 'public.custom_access_token_hook(jsonb)', 'execute')::text
            """).scalar == "truefalse")

        // Storage policies work as the storage server runs them: as the user, with claims.
        try connection.execute("begin")
        defer { _ = try? connection.execute("rollback") }
        try connection.query("select set_config('request.jwt.claims', \(#"{"sub":"\#(user)","role":"authenticated"}"#), true)")
        try connection.execute("set local role authenticated")
        try connection.query(
            "insert into storage.objects (bucket_id, name, owner_id) values ('avatars', \("\(user)/avatar.png"), \(user))")
        let refused = try refusal(connection, "insert into storage.objects (bucket_id, name) values ('avatars', 'someone-else/avatar.png')")
        #expect(refused?.sqlState == .insufficientPrivilege)
        // On Supabase the API roles have no privilege on auth tables, so a
        // security-invoker view over auth.identities is refused too.
        #expect(try refusal(connection, "select * from public.account_providers")?.sqlState == .insufficientPrivilege)
        _ = admin
    }

    /// Runs `sql` in a savepoint; returns its error (the savepoint rolled back), or nil.
    private func refusal(_ connection: Connection, _ sql: String) throws -> PGError? {
        try connection.execute("savepoint attempt")
        do {
            try connection.execute(unsafeScript: sql)
            try connection.execute("release savepoint attempt")
            return nil
        } catch let error as PGError {
            try connection.execute("rollback to savepoint attempt; release savepoint attempt")
            return error
        }
    }

    /// What Supabase refuses to postgres, the twin refuses with the same SQLSTATE.
    @Test(arguments: [
        ("create a table in auth", "create table auth.sessions_archive (id uuid)"),
        ("disable a trigger on auth.users", """
            create function public.noop() returns trigger language plpgsql as $$ begin return new; end $$;
            create trigger noop after insert on auth.users for each row execute function public.noop();
            alter table auth.users disable trigger noop;
            """),
        ("alter auth.users", "alter table auth.users add column nickname text"),
        ("create a table in storage", "create table storage.thumbnails (id uuid)"),
        ("alter storage.objects", "alter table storage.objects enable row level security"),
        ("create a policy on an auth table outside supautils' list", "create policy p on auth.schema_migrations for select using (true)"),
        ("write the auth server's migration history", "insert into auth.schema_migrations values ('1')"),
        ("delete from storage.objects directly", "delete from storage.objects"),
        ("create a role that is a superuser", "create role sneaky superuser"),
    ])
    func supabaseRefusesAndSoDoesTheTwin(_ action: String, _ sql: String) throws {
        let error = try asPostgres(sql)
        #expect(error?.sqlState == .insufficientPrivilege, "\(action): \(error?.message ?? "succeeded")")
    }

    /// Every project has storage's S3 multipart upload tables (ST 0021): a schema dump's
    /// grants on them apply as postgres, postgres may write policies on them
    /// (supautils.policy_grants), and anon, though granted select, sees no row
    /// (row-level security, no policy) and may not write.
    @Test func theS3UploadTablesTakeADumpsGrantsAndHideRowsFromAnon() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("s3")
        #expect(try asPostgres(
            """
            grant select on table storage.s3_multipart_uploads to postgres;
            grant all on table storage.s3_multipart_uploads_parts to service_role;
            create policy "own uploads" on storage.s3_multipart_uploads for select to authenticated using (owner_id = auth.uid()::text);
            drop policy "own uploads" on storage.s3_multipart_uploads;
            """, on: project)?.message == nil)
        try Connection(admin).execute(
            """
            insert into storage.buckets (id, name) values ('b', 'b');
            insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version) values ('u1', 's', 'b', 'k', 'v');
            """)
        let connection = try Connection(project)
        try connection.execute("begin")
        _ = try connection.query("set local role anon")
        #expect(try connection.query("select count(*)::text from storage.s3_multipart_uploads").scalar == "0")
        let refused = try #require(throws: PGError.self) {
            try connection.query("insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version) values ('u1', 1, 'b', 'k', 'e', 'v')")
        }
        #expect(refused.sqlState == .insufficientPrivilege)
        try connection.execute("rollback")
        #expect(try connection.query("select count(*)::text from storage.s3_multipart_uploads").scalar == "1")
    }

    /// ... and what Supabase lets postgres do, the twin lets it do.
    @Test func supabaseAllowsAndSoDoesTheTwin() throws {
        let project = try TestCluster.newTwinDatabase("allowed").project
        #expect(try asPostgres(
            """
            create policy "own files" on storage.objects for select to authenticated using (owner_id = auth.uid()::text);
            drop policy "own files" on storage.objects;
            create policy "read own account" on auth.users for select to authenticated using (id = auth.uid());
            create policy "own factors" on auth.mfa_factors for select to authenticated using (user_id = auth.uid());
            drop policy "own factors" on auth.mfa_factors;
            create function public.on_signup() returns trigger language plpgsql as $$ begin return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            drop trigger on_signup on auth.users;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            drop function public.on_signup() cascade;
            select set_config('storage.allow_delete_query', 'true', true);
            delete from storage.objects;
            create extension if not exists pg_trgm with schema extensions;
            create table public.notes (id bigint primary key);
            alter publication supabase_realtime add table public.notes;
            """, on: project)?.message == nil)
        let connection = try Connection(project)
        #expect(try connection.query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar == "false")
    }

    /// supautils lifts policy commands only on its listed tables: a policy on a table
    /// postgres neither owns nor finds listed may not be dropped either (its sql_drop
    /// check once ran while postgres was still a superuser, and so passed everything).
    @Test(arguments: ["public.admin_notes", "auth.schema_migrations"])
    func postgresMayNotDropAPolicyOnATableOutsideTheList(_ table: String) throws {
        let (admin, project) = try TestCluster.newTwinDatabase("dropol")
        try Connection(admin).execute(unsafeScript:
            """
            create table public.admin_notes (id int);
            create policy admins_only on \(table) using (false);
            """)
        let error = try asPostgres("drop policy admins_only on \(table)", on: project)
        #expect(error?.sqlState == .insufficientPrivilege, "\(error?.message ?? "succeeded")")
        let connection = try Connection(admin)
        #expect(try connection.query("select count(*)::text from pg_policies where policyname = 'admins_only'").scalar == "1")
        #expect(try connection.query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar == "false")
    }

    @Test func aMissingExtensionNamesTheExtensionAndItsPackage() throws {
        let folder = try MigrationFolder([
            "1_embeddings.sql": "create extension if not exists vector with schema extensions;\n",
        ])
        let project = try TestCluster.newTwinDatabase("ext").project
        let failure = try #require(throws: MigrationSQLFailure.self) {
            try Migrator.open(folder: folder.path, settings: project).up()
        }
        let text = failure.description
        #expect(text.contains(#"extension "vector" is not available"#))
        #expect(text.contains("HINT: this server lacks the extension vector, which Supabase provides"))
        #expect(text.contains("apt-get install postgresql-15-pgvector"))
        #expect(try Connection(project).query("select count(*)::text from pg_extension where extname = 'vector'").scalar == "0")
    }
}

/// The policy-grants stand-in changes a role, which every database of the server
/// shares: policy migrations running at once in several databases must not collide.
@Suite struct TwinPolicyGrantConcurrencyTests {
    @Test func policyMigrationsInParallelDatabasesAllSucceed() throws {
        let projects = try (0..<4).map { _ in try TestCluster.newTwinDatabase("par").project }
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: projects.count) { index in
            do {
                let connection = try Connection(projects[index])
                try connection.execute(unsafeScript:
                    """
                    begin;
                    create policy "p" on storage.objects for select to authenticated using (bucket_id = 'b\(index)');
                    select pg_sleep(0.05);
                    alter policy "p" on storage.objects using (bucket_id = 'c\(index)');
                    commit;
                    """)
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.all == [])
        for project in projects {
            let connection = try Connection(project)
            #expect(try connection.query(
                "select qual from pg_policies where schemaname = 'storage' and policyname = 'p'").scalar?.contains("'c") == true)
        }
        #expect(try Connection(projects[0]).query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar == "false")
    }
}

/// Errors collected from several threads.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
