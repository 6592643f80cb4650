import Foundation
import Testing
import WardenKit
import TestSupport

/// Electric Ride's own database behaviour: the sign-up trigger, account deletion,
/// and seeds.
@Suite struct ElectricRideDatabaseTests {
    private func signUp(_ connection: Connection, email: String?, metadata: String?) throws -> String {
        try connection.query(
            // auth.users.id has no default on Supabase: the auth server gives it, as here.
            """
            insert into auth.users (id, aud, role, email, raw_user_meta_data)
            values (gen_random_uuid(), 'authenticated', 'authenticated', \(email), \(metadata)::jsonb) returning id::text
            """
        ).scalar ?? ""
    }

    private func patrons(_ connection: Connection, of userID: String) throws -> [[String?]] {
        try connection.query(
            "select first_name, last_name, email_address from public.patron where user_id = \(userID)::uuid").rows
    }

    @Test func theSignUpTriggerCreatesExactlyOnePatron() throws {
        let connection = try ElectricRide.database(seeded: false)
        let named = try signUp(connection, email: "ines@example.com", metadata: #"{"first_name":"Inès","last_name":"Okafor"}"#)
        #expect(try patrons(connection, of: named) == [["Inès", "Okafor", "ines@example.com"]])
        let fullName = try signUp(connection, email: "kai@example.com", metadata: #"{"full_name":"Kai Mendes Ruiz"}"#)
        #expect(try patrons(connection, of: fullName) == [["Kai", "Mendes Ruiz", "kai@example.com"]])
        let bare = try signUp(connection, email: "no.meta@example.com", metadata: nil)
        let bareRows = try patrons(connection, of: bare)
        #expect(bareRows.count == 1)
        #expect(bareRows.first?[2] == "no.meta@example.com")
        #expect(bareRows.first?[0]?.isEmpty == false)
        let odd = try signUp(connection, email: "odd@example.com", metadata: #"["not", "an", "object"]"#)
        #expect(try patrons(connection, of: odd).count == 1)
        #expect(try connection.query("select count(*) from public.patron").scalar == "4")
    }

    @Test func deleteCurrentUserRemovesOnlyTheCallersRows() throws {
        let connection = try ElectricRide.database()
        let before = try DatabaseFingerprint.rows(connection)
        let ava = "e1ec7a1d-0000-4000-8000-000000000001"
        let counts = { (sql: SQL) in try connection.query(sql).scalar }
        let mine = try connection.query(
            """
            select (select count(*) from public.listing l join public.patron p on p.id = l.patron_id where p.user_id = \(ava)::uuid)::text,
                   (select count(*) from public.saved s join public.patron p on p.id = s.patron_id where p.user_id = \(ava)::uuid)::text
            """).rows[0]
        #expect(mine[0] != "0" && mine[1] != "0")  // the seeds gave her listings and saved rows
        try connection.transaction {
            try connection.execute("set local role authenticated")
            try connection.query("select set_config('request.jwt.claims', \(#"{"sub":"\#(ava)","role":"authenticated"}"#), true)")
            try connection.execute("select public.delete_current_user()")
        }
        #expect(try counts("select count(*) from auth.users where id = \(ava)::uuid") == "0")
        #expect(try counts("select count(*) from public.patron where user_id = \(ava)::uuid") == "0")
        let after = try DatabaseFingerprint.rows(connection)
        // Other users keep everything except saved rows that pointed at her listings.
        let othersKept = try connection.query(
            """
            select (select count(*) from auth.users)::text, (select count(*) from public.patron)::text,
                   (select count(*) from public.listing)::text
            """
        ).rows[0]
        #expect(othersKept == ["2", "2", "16"])
        #expect(after["public.colour"] == before["public.colour"])
        #expect(after["public.vehicle"] == before["public.vehicle"])
    }

    @Test func deleteCurrentUserRefusesAnon() throws {
        let connection = try ElectricRide.database()
        let error = try #require(throws: PGError.self) {
            try connection.transaction {
                try connection.execute("set local role anon; select set_config('request.jwt.claims', '{\"role\":\"anon\"}', true)")
                try connection.execute("select public.delete_current_user()")
            }
        }
        #expect(error.sqlState == .insufficientPrivilege)
        #expect(try connection.query("select count(*) from auth.users").scalar == "3")
    }

    @Test func deleteCurrentUserWithoutASignedInUserSaysSo() throws {
        let connection = try ElectricRide.database()
        let error = try #require(throws: PGError.self) {
            try connection.transaction {
                try connection.execute("set local role authenticated")
                try connection.execute("select public.delete_current_user()")
            }
        }
        #expect(error.message.contains("no signed-in user"))
        #expect(try connection.query("select count(*) from auth.users").scalar == "3")
    }

    @Test func seedingTwiceLeavesTheSameData() throws {
        let connection = try ElectricRide.database()
        let once = try DatabaseFingerprint.rows(connection)
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        #expect(try DatabaseFingerprint.rows(connection) == once)
        let counts = try connection.query(
            """
            select (select count(*) from public.make)::text, (select count(*) from public.vehicle)::text,
                   (select count(*) from public.listing where is_active)::text,
                   (select count(*) from public.listing where not is_active)::text,
                   (select count(distinct patron_id) from public.saved)::text
            """
        ).rows[0]
        #expect(counts == ["9", "24", "20", "4", "2"])
    }

    @Test func aFailingSeedLeavesNoSeedRow() throws {
        let connection = try ElectricRide.database(seeded: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "insert into public.colour (name) values ('Seeded');\n".write(
            to: folder.appendingPathComponent("01_ok.sql"), atomically: true, encoding: .utf8)
        try "insert into public.colour (name) values ('Fine');\ninsert into public.colour (nme) values ('x');\n".write(
            to: folder.appendingPathComponent("02_bad.sql"), atomically: true, encoding: .utf8)
        let error = try #require(throws: SeedError.self) { try Seeder(folder: folder).apply(connection) }
        #expect(error.file.hasSuffix("02_bad.sql"))
        #expect(error.line == 2)
        #expect(error.underlying?.sqlState == .undefinedColumn)
        #expect(try connection.query("select count(*) from public.colour").scalar == "0")
    }
}
