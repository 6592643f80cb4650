import Testing
@testable import WardenKit

/// Which `DO` blocks the twin runs as Supabase runs a `CREATE EVENT TRIGGER`
/// (`EventTriggerBlock`): those that only create one, behind the guards that make a
/// migration safe to run again; never one that does anything more.
@Suite struct EventTriggerBlockTests {
    @Test(arguments: [
        // A psychology clinic's shape (round thirty-six).
        """
        do $$ begin
          create event trigger rls_auto_enable_trigger
            on ddl_command_end
            when tag in ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO')
            execute function public.rls_auto_enable();
        exception when duplicate_object then null; end $$;
        """,
        """
        DO LANGUAGE plpgsql $body$
        BEGIN
          -- only once
          IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_event_trigger WHERE evtname = 'ensure_rls') THEN
            CREATE EVENT TRIGGER ensure_rls ON ddl_command_end EXECUTE FUNCTION public.rls_auto();
          END IF;
        END
        $body$;
        """,
    ])
    func aBlockThatOnlyCreatesOneEventTriggerIsOne(_ block: String) {
        #expect(EventTriggerBlock.isOne(block))
    }

    @Test(arguments: [
        // Anything more in the block would run with postgres a superuser.
        "do $$ begin create event trigger t on ddl_command_end execute function f(); alter role authenticated bypassrls; end $$;",
        "do $$ begin create table public.t (id int); create event trigger t on ddl_command_end execute function f(); end $$;",
        "do $$ begin perform pg_catalog.set_config('x', 'y', false); create event trigger t on ddl_command_end execute function f(); end $$;",
        // Two triggers, none, or one only in a comment.
        "do $$ begin create event trigger a on ddl_command_end execute function f(); create event trigger b on sql_drop execute function f(); end $$;",
        "do $$ begin perform 1; end $$;",
        "do $$ begin -- create event trigger t on ddl_command_end execute function f();\n null; end $$;",
        // Another language, or no DO at all.
        "do language plpython3u $$ create event trigger t $$;",
        "select 'do $$ begin create event trigger t on ddl_command_end execute function f(); end $$';",
    ])
    func anyOtherBlockIsNot(_ block: String) {
        #expect(!EventTriggerBlock.isOne(block))
    }
}
