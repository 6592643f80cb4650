import Foundation
import Testing
import WardenKit
import TestSupport

/// Electric Ride's migrations as a whole: bootstrap, up all, down all, up again; reset.
@Suite struct ElectricRideLifecycleTests {
    /// Everything an Electric Ride migration could leave behind, as catalog rows:
    /// relations, functions, policies, triggers (including on auth.users), and every
    /// privilege granted to the API roles in public, auth or by default ACLs.
    private func footprint(_ connection: Connection) throws -> [[String?]] {
        try connection.query(
            """
            select 'relation', format('%I.%I', n.nspname, c.relname), coalesce(c.relacl::text, '')
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname in ('public', 'auth', 'storage', 'private') and c.relkind in ('r','p','v','m','S','f','i')
            union all
            select 'function', p.oid::regprocedure::text, coalesce(p.proacl::text, '')
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname in ('public', 'auth', 'storage', 'private')
            union all
            select 'policy', format('%I.%I %s', schemaname, tablename, policyname), '' from pg_policies
            union all
            select 'trigger', format('%s %s', tgrelid::regclass, tgname), '' from pg_trigger where not tgisinternal
            union all
            select 'default acl', d.defaclobjtype::text, d.defaclacl::text from pg_default_acl d
            union all
            select 'schema', nspname, coalesce(nspacl::text, '') from pg_namespace
            where nspname in ('public', 'auth', 'storage', 'private')
            union all
            select 'bucket', id, '' from storage.buckets
            order by 1, 2, 3
            """
        ).rows
    }

    /// As on Supabase: bootstrapped by the superuser, migrated by postgres (not a superuser).
    @Test func downAllLeavesNoElectricRideObjectBehindAndUpWorksAgain() throws {
        let settings = try TestCluster.newTwinDatabase("life").project
        let connection = try Connection(settings)
        #expect(try connection.query("select rolsuper from pg_roles where rolname = current_user").scalar == "f")
        let bootstrapped = try footprint(connection)
        let migrator = try Migrator.open(folder: ElectricRide.migrations.path, settings: settings)

        let up = try migrator.up()
        #expect(up.steps.count == 15)
        let migrated = try footprint(connection)
        #expect(migrated.contains { $0[0] == "trigger" && $0[1] == "auth.users on_auth_user_created" })
        #expect(migrated.contains { $0[0] == "policy" && $0[1]?.hasPrefix("storage.objects") == true })
        #expect(migrated.contains { $0[0] == "bucket" && $0[1] == "vehicle-photos" })

        let down = try migrator.down(.all)
        #expect(down.steps.count == 15)
        #expect(try footprint(connection) == bootstrapped)

        _ = try migrator.up()
        #expect(try footprint(connection) == migrated)
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        let report = try AccessPlanRunner(connection: connection, plan: AccessPlanParser.load(path: ElectricRide.planPath)).run()
        #expect(report.failures.map(\.name) == [])
    }

    @Test func resetThenSeedTwiceLeavesTheSameData() throws {
        let (admin, settings) = try TestCluster.newTwinDatabase("reset")
        let connection = try Connection(settings)
        let project = Project(directory: ElectricRide.root)
        try SupabaseCompat.bootstrap(Connection(admin))
        try project.provision(on: Connection(settings))
        #expect(try project.accessPlan().prove(on: connection).failures.map(\.name) == [])
        try connection.execute("insert into public.colour (name) values ('Scribbled by hand')")
        // What `pgwarden reset` does, on the public API: down all, up, seed.
        let migrations = try project.migrations()
        let migrating = try Connection(settings)
        #expect(try migrations.down(.all, on: migrating).steps.count == migrations.files.count)
        #expect(try migrations.up(on: migrating).steps.count == migrations.files.count)
        let seeded = try project.seed(on: connection)
        #expect(try connection.query("select count(*) from public.colour where name = 'Scribbled by hand'").scalar == "0")
        let afterReset = try DatabaseFingerprint.rows(connection)
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        #expect(try DatabaseFingerprint.rows(connection).filter { !$0.key.hasPrefix("pgwarden.") }
                == afterReset.filter { !$0.key.hasPrefix("pgwarden.") })
        #expect(seeded?.count == 3)
    }
}
