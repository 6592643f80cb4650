import Foundation
import Testing
import WardenKit
import TestSupport

/// Supabase Realtime's part of the twin (docs/supabase-twin.md, "realtime"): the
/// authorization policies projects write on realtime.messages, and messages sent from
/// the database with realtime.send() and realtime.broadcast_changes().
@Suite struct TwinRealtimeTests {
    static let sub = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    /// A policy of the kind Supabase's Broadcast docs show: members of `room:<uid>`
    /// may read its messages. Applied as postgres, which owns neither the table nor its
    /// owner's role: supautils' policy_grants lets it, and so does the twin.
    static let roomPolicy = """
        create policy "read own room" on realtime.messages for select to authenticated
          using (realtime.messages.extension = 'broadcast' and (select realtime.topic()) = 'room:' || (select auth.uid())::text);
        """

    /// Reads, as an authenticated user joining `topic` the way the Realtime server
    /// does (role, realtime.topic and claims set locally), how many messages of it
    /// the policies let through.
    private func visible(_ connection: Connection, topic: String) throws -> String? {
        try connection.execute("begin")
        defer { _ = try? connection.execute("rollback") }
        try connection.query(
            "select set_config('realtime.topic', \(topic), true), set_config('request.jwt.claims', \(#"{"sub":"\#(Self.sub)","role":"authenticated"}"#), true)")
        try connection.execute("set local role authenticated")
        return try connection.query("select count(*)::text from realtime.messages where topic = \(topic)").scalar
    }

    @Test func aPolicyOnMessagesAppliesAsPostgresAndDecidesWhatSendsAreSeen() throws {
        let project = try Connection(TestCluster.newTwinDatabase("realtime").project)
        try project.execute(unsafeScript: Self.roomPolicy)
        try project.query("select realtime.send('{\"text\":\"hi\"}'::jsonb, 'message', \("room:\(Self.sub)"))")
        try project.query(#"select realtime.send('{"text":"other"}'::jsonb, 'message', 'room:someone-else')"#)
        #expect(try visible(project, topic: "room:\(Self.sub)") == "1")
        #expect(try visible(project, topic: "room:someone-else") == "0")
        // As upstream: private by default, and the payload carries the row's id.
        #expect(try project.query("select (private and payload->>'id' = id::text)::text from realtime.messages where event = 'message' limit 1").scalar == "true")
        // The policy can be changed and dropped again by postgres.
        try project.execute(#"alter policy "read own room" on realtime.messages to authenticated, anon; drop policy "read own room" on realtime.messages;"#)
        #expect(try visible(project, topic: "room:\(Self.sub)") == "0")
    }

    /// realtime.send() inserts as its caller: without an insert policy an authenticated
    /// caller's message is refused, which send() turns into a warning, as upstream.
    @Test func sendAsAClientWithoutAnInsertPolicyWarnsAndSendsNothing() throws {
        let warnings = WarningBox()
        let project = try Connection(TestCluster.newTwinDatabase("realtime").project) { warnings.add($0.message) }
        try project.execute("begin")
        try project.query("select set_config('request.jwt.claims', \(#"{"sub":"\#(Self.sub)","role":"authenticated"}"#), true)")
        try project.execute("set local role authenticated")
        try project.query("select realtime.send('{}'::jsonb, 'e', 'room:1')")
        try project.execute("rollback")
        #expect(warnings.all.contains { $0.hasPrefix("WarnSendingBroadcastMessage:") && $0.contains("row-level security") })
        #expect(try project.query("select count(*)::text from realtime.messages").scalar == "0")
    }

    /// A row trigger broadcasting changes, as Supabase's "Broadcast from the database"
    /// docs write it (a security definer function owned by postgres).
    @Test func broadcastChangesSendsTheRowFromATrigger() throws {
        let project = try Connection(TestCluster.newTwinDatabase("realtime").project)
        try project.execute(
            """
            create table public.notes (id bigint primary key, body text);
            create function public.notes_broadcast() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              perform realtime.broadcast_changes('notes:' || new.id::text, tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
              return null;
            end $$;
            create trigger notes_broadcast after insert or update on public.notes for each row execute function public.notes_broadcast();
            insert into public.notes values (7, 'first');
            """)
        #expect(try project.query(
            "select format('%s %s %s %s %s', topic, event, private::text, payload->>'operation', payload->'record'->>'body') from realtime.messages"
        ).scalar == "notes:7 INSERT true INSERT first")
    }

    /// A Supabase CLI project using both: the pgsodium line of a schema dump, a
    /// Broadcast policy, and a function calling realtime.send(), through `pgwarden dev`.
    @Test func devAppliesMigrationsUsingRealtimeAndPgsodium() throws {
        let root = NSTemporaryDirectory() + "pgwarden-rt-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let migrations = "\(root)/supabase/migrations"
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        try Data(
            """
            create extension if not exists "pgsodium" with schema "pgsodium";
            comment on extension pgsodium is 'Pgsodium is a modern cryptography library for Postgres.';

            """.utf8).write(to: URL(fileURLWithPath: "\(migrations)/20250101000000_remote_schema.sql"))
        try Data(
            """
            \(Self.roomPolicy)
            create policy "send to own room" on realtime.messages for insert to authenticated
              with check ((select realtime.topic()) = 'room:' || (select auth.uid())::text);
            create function public.ping(room text) returns void language sql as $$
              select realtime.send(jsonb_build_object('at', now()), 'ping', room, true)
            $$;

            """.utf8).write(to: URL(fileURLWithPath: "\(migrations)/20250102000000_broadcast.sql"))
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardOutput.contains("2 migrations: 2 applied"), "\(dev.all)")
        #expect(dev.all.contains("pgsodium encryption"), "\(dev.all)")
    }
}
