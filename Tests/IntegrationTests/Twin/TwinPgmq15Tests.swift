import Foundation
import Testing
import WardenKit
import TestSupport

/// The pgmq stand-in's pgmq 1.5 API, the version current Supabase images ship
/// (docs/supabase-twin.md, "Stand-ins"): messages carry headers, send and send_batch
/// take headers and a delay in seconds or as a time, read takes a `conditional`,
/// read_with_poll, metrics, and queue names in any case, as projects such as pgflow
/// (pgflow-dev/pgflow) use them.
@Suite struct TwinPgmq15Tests {
    private func project() throws -> Connection {
        let project = try Connection(TestCluster.newTwinDatabase("pgmq15").project)
        _ = try project.query("create extension pgmq")
        return project
    }

    /// pgmq 1.5.0 added `headers jsonb` to `pgmq.message_record` and to the queue and
    /// archive tables; pgflow's upgrade migration looks for it in pg_attribute.
    @Test func messagesCarryHeaders() throws {
        let project = try project()
        #expect(try project.query("""
            select string_agg(a.attname, ',' order by a.attnum) from pg_type t join pg_attribute a on a.attrelid = t.typrelid
            where t.typnamespace = 'pgmq'::regnamespace and t.typname = 'message_record' and a.attnum > 0 and not a.attisdropped
            """).scalar == "msg_id,read_ct,enqueued_at,vt,message,headers")
        _ = try project.query("select pgmq.create('mail')")
        _ = try project.query(#"select pgmq.send('mail', '{"n":1}')"#)
        _ = try project.query(#"select pgmq.send('mail', '{"n":2}', '{"source":"test"}'::jsonb)"#)
        _ = try project.query(#"select pgmq.send_batch('mail', array['{"n":3}', '{"n":4}']::jsonb[], array['{"h":3}', '{"h":4}']::jsonb[])"#)
        #expect(try project.query("select string_agg(coalesce(headers::text, 'null'), ' ' order by msg_id) from pgmq.read('mail', 30, 10)")
            .scalar == #"null {"source": "test"} {"h": 3} {"h": 4}"#)
        #expect(try project.query("select headers->>'source' from pgmq.set_vt('mail', 2, 0)").scalar == "test")
        #expect(try project.query("select pgmq.archive('mail', 2)::text").scalar == "true")
        #expect(try project.query("select headers->>'source' from pgmq.a_mail").scalar == "test")
        _ = try project.query("select pgmq.set_vt('mail', 3, 0)")
        #expect(try project.query("select headers->>'h' from pgmq.pop('mail')").scalar == "3")
    }

    /// send and send_batch: a delay in seconds or as a timestamptz, with or without
    /// headers; read's `conditional` keeps the messages that contain it.
    @Test func delaysAndConditionalRead() throws {
        let project = try project()
        _ = try project.query("select pgmq.create('later')")
        _ = try project.query(#"select pgmq.send('later', '{"k":"soon"}', now() + interval '1 hour')"#)
        _ = try project.query(#"select pgmq.send('later', '{"k":"delayed"}', 3600)"#)
        _ = try project.query(#"select pgmq.send('later', '{"k":"h"}', '{"x":1}'::jsonb, now() + interval '1 hour')"#)
        _ = try project.query(#"select pgmq.send('later', '{"k":"h2"}', '{"x":2}'::jsonb, 0)"#)
        _ = try project.query(#"select pgmq.send_batch('later', array['{"k":"a","t":1}', '{"k":"b","t":2}']::jsonb[], 0)"#)
        _ = try project.query(#"select pgmq.send_batch('later', array['{"k":"c"}']::jsonb[], now() + interval '1 day')"#)
        #expect(try project.query("select count(*)::text from pgmq.q_later where vt > now() + interval '30 minutes'").scalar == "4")
        #expect(try project.query(#"select string_agg(message->>'k', ',') from pgmq.read('later', 30, 10, '{"t":2}')"#).scalar == "b")
        #expect(try project.query("select string_agg(message->>'k', ',' order by msg_id) from pgmq.read('later', 30, 10)").scalar == "h2,a")
    }

    /// read_with_poll returns as soon as messages are there, and an empty set when the
    /// poll ends without any; metrics counts a queue's messages.
    @Test func readWithPollAndMetrics() throws {
        let project = try project()
        _ = try project.query("select pgmq.create('polled')")
        _ = try project.query(#"select pgmq.send_batch('polled', array['{"n":1}', '{"n":2}', '{"n":3}']::jsonb[])"#)
        #expect(try project.query("select string_agg(message->>'n', ',' order by msg_id) from pgmq.read_with_poll('polled', 30, 2, 2, 50)")
            .scalar == "1,2")
        #expect(try project.query(
            "select format('%s %s %s', queue_length, queue_visible_length, total_messages) from pgmq.metrics('polled')").scalar == "3 1 3")
        #expect(try project.query("select count(*)::text from pgmq.metrics_all()").scalar == "1")
        _ = try project.query("select pgmq.read('polled', 30, 5)")
        #expect(try project.query("select count(*)::text from pgmq.read_with_poll('polled', 30, 1, 1, 100)").scalar == "0")
    }

    /// Queue names are stored as given and their tables' names lower-cased
    /// (`pgmq.format_table_name`), so pgflow's flow slugs in any case work; `$`, `;`,
    /// `--` and `'` are refused, and names of 48 characters or more.
    @Test func queueNamesAsPgmqFormatsThem() throws {
        let project = try project()
        #expect(try project.query("select pgmq.format_table_name('MyFlow', 'q')").scalar == "q_myflow")
        _ = try project.query("select pgmq.create('MyFlow')")
        _ = try project.query(#"select pgmq.send('MyFlow', '{"n":1}', 0)"#)
        #expect(try project.query("select count(*)::text from pgmq.q_myflow").scalar == "1")
        #expect(try project.query("select string_agg(queue_name, ',') from pgmq.list_queues()").scalar == "MyFlow")
        for bad in ["F--oo", "F$oo", "F;oo", "F''oo"] {
            #expect(throws: PGError.self) { try project.query("select pgmq.create('\(bad)')") }
        }
        #expect(throws: PGError.self) { try project.query("select pgmq.create('\(String(repeating: "x", count: 48))')") }
        #expect(try project.query("select pgmq.drop_queue('MyFlow')::text").scalar == "true")
    }

    /// pgflow's own use (pgflow-dev/pgflow supabase/migrations): a function that names
    /// the queue table through format_table_name and returns the message's headers.
    @Test func pgflowStyleFunctionsWork() throws {
        let project = try project()
        try project.execute("""
            create function public.bump(queue_name text, ids bigint[]) returns table(msg_id bigint, headers jsonb)
            language plpgsql as $$
            begin
              return query execute format('update pgmq.%I q set vt = clock_timestamp() where q.msg_id = any($1) returning q.msg_id, q.headers',
                                          pgmq.format_table_name(queue_name, 'q')) using ids;
            end $$;
            """)
        _ = try project.query("select pgmq.create('Flow_A')")
        let id = try #require(try project.query(#"select pgmq.send('Flow_A', '{"step":"x"}', '{"h":"v"}'::jsonb)::text"#).scalar)
        #expect(try project.query("select headers->>'h' from public.bump('Flow_A', array[\(id)::bigint])").scalar == "v")
        #expect(try project.query("select string_agg(id::text, ',') from pgmq.archive('Flow_A', array[\(id)::bigint]) id").scalar == id)
    }

    /// The dashboard's migration for Queues on a PostgreSQL 15 project pins the version
    /// Supabase shipped there (`version '1.4.4'`): it stopped with 22023, "no
    /// installation script nor update path". Each version Supabase ships installs the
    /// stand-in, updates to the next, and is still reported as the stand-in.
    @Test func aPinnedSupabaseVersionInstallsTheStandIn() throws {
        let project = try Connection(TestCluster.newTwinDatabase("pgmqpinned").project)
        _ = try project.query("create schema if not exists pgmq")
        _ = try project.query("create extension if not exists pgmq with schema pgmq version '1.4.4'")
        _ = try project.query("select pgmq.create('jobs')")
        #expect(try project.query("select extversion from pg_extension where extname = 'pgmq'").scalar == "1.4.4")
        _ = try project.query("alter extension pgmq update to '1.5.1'")
        #expect(try project.query("select extversion from pg_extension where extname = 'pgmq'").scalar == "1.5.1")
        #expect(try StandInExtensions.installed(project).contains("pgmq"))
        // A version Supabase never shipped is still refused, as PostgreSQL refuses it.
        #expect(throws: PGError.self) { try project.query("alter extension pgmq update to '9.9.9'") }
    }
}
