import Foundation
import Testing
import WardenKit
import TestSupport

/// Each file starts with every constraint in the mode a new transaction gives it, as
/// under pg_prove, where each file is a session of its own. A `set constraints all
/// immediate` run inside a released subtransaction (`lives_ok` calling an RPC that
/// settles at once) outlived its file's savepoint, and a later file's order, inserted
/// before its lines as a deferred trigger allows, failed (an expense app's payers).
@Suite struct PgTAPConstraintModeTests {
    @Test func aFileThatMadeConstraintsImmediateLeavesTheNextFileItsOwnModes() throws {
        let result = try PgTAPFolder.test([
            "000-schema.sql": """
                create table public.tap_orders (id int primary key);
                create table public.tap_order_lines (order_id int not null references public.tap_orders, qty int not null);
                create function public.tap_order_has_lines() returns trigger language plpgsql as $$
                begin
                  if not exists (select 1 from public.tap_order_lines where order_id = new.id) then
                    raise exception 'order % has no lines', new.id using errcode = 'check_violation';
                  end if;
                  return null;
                end $$;
                create constraint trigger tap_order_has_lines after insert on public.tap_orders
                  deferrable initially deferred for each row execute function public.tap_order_has_lines();
                create function public.tap_settle_now() returns void language plpgsql as $$
                begin set constraints all immediate; end $$;
                select plan(1);
                select pass('the schema is there');
                select * from finish();

                """,
            "010-settles.sql": """
                begin;
                select plan(1);
                select lives_ok('select public.tap_settle_now()', 'an RPC settles at once');
                select * from finish();
                rollback;

                """,
            "020-orders.sql": """
                begin;
                select plan(1);
                insert into public.tap_orders (id) values (1);
                insert into public.tap_order_lines (order_id, qty) values (1, 1);
                select is((select count(*)::int from public.tap_order_lines), 1, 'the order has its line');
                select * from finish();
                rollback;

                """,
        ])
        #expect(result.standardOutput.contains("✓ supabase/tests/020-orders.sql"), "\(result.all)")
        #expect(result.standardOutput.contains("3 files, 3 assertions, 3 passed, 0 failed"), "\(result.all)")
    }
}
