import Foundation
import Testing
import WardenKit
import TestSupport

@Suite struct AccessPlanParserTests {
    private let personas = """
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava@example.com }
          service: { role: service_role }
        """

    private func parse(_ text: String) throws -> AccessPlan {
        try AccessPlanParser(file: "plan.yml").parse(text)
    }

    private func mistake(_ text: String) -> AccessPlanError? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as AccessPlanError {
            return error
        } catch {
            return AccessPlanError(file: "?", line: nil, message: "unexpected \(error)")
        }
    }

    @Test func readsElectricRidesPlan() throws {
        let path = PackagePaths.root.appendingPathComponent("access-plan.yml").path
        let plan = try AccessPlanParser.load(path: path)
        #expect(plan.personas.map(\.name) == ["anon", "ava", "ben", "service"])
        let saved = try #require(plan.relations.first { $0.name == "saved" })
        #expect(saved.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own))
        #expect(saved.access["anon"] == .nothing)
        #expect(saved.access["service"] == .everything)
        #expect(plan.functions.map(\.signature) == [
            "public.delete_current_user()", "public.handle_new_user()", "storage.foldername(text)", "storage.filename(text)",
            "storage.extension(text)", "storage.protect_delete()", "storage.update_updated_at_column()",
        ])
        let photos = try #require(plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(photos.access["ava"] == Access(select: .all, insert: .own, update: .own, delete: .own))
        #expect(plan.functions[0].execute == ["anon": false, "ava": true, "ben": true, "service": true])
        #expect(plan.checks.count >= 5)
    }

    /// A plan that names no schemas checks those its Supabase CLI project exposes (the
    /// project's own among config.toml's `[api] schemas`; unqualified names in the
    /// first), and says where they came from; one that names them keeps its own, and
    /// the configured ones it leaves out are named.
    @Test func aPlanWithoutSchemasTakesThemFromConfigToml() throws {
        let folder = TestFolder.url("plan-config-schemas")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        try "[api]\nschemas = [\"api\", \"graphql_public\", \"public\"]\n"
            .write(to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("access-plan.yml").path
        let relations = "\nrelations:\n  notes:\n    access: { anon: read }\n"
        try (personas + relations).write(toFile: path, atomically: true, encoding: .utf8)
        let configured = try AccessPlanParser.load(path: path)
        #expect(configured.schemas == ["api", "public"])
        #expect(configured.relations.map(\.qualifiedName) == ["api.notes"])
        #expect(configured.schemasConfig?.hasSuffix("supabase/config.toml") == true)
        #expect(configured.schemasLine == nil)
        #expect(configured.configuredSchemasLeftOut.isEmpty)

        try ("schemas: [public]\n" + personas + relations).write(toFile: path, atomically: true, encoding: .utf8)
        let named = try AccessPlanParser.load(path: path)
        #expect(named.schemas == ["public"])
        #expect(named.relations.map(\.qualifiedName) == ["public.notes"])
        // The plan's own list wins, and what it leaves out of config.toml's is named.
        #expect(named.configuredSchemasLeftOut == ["api"])

        // No config.toml: public, as before.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("supabase/config.toml"))
        try (personas + relations).write(toFile: path, atomically: true, encoding: .utf8)
        let plain = try AccessPlanParser.load(path: path)
        #expect(plain.schemas == ["public"])
        #expect(plain.schemasConfig == nil)
        #expect(plain.configuredSchemasLeftOut.isEmpty)
    }

    @Test func roleKeysApplyToEveryPersonaWithThatRoleAndPersonaKeysWin() throws {
        let plan = try parse(personas + """

            relations:
              note:
                sample: { body: "'x'" }
                access: { authenticated: read, ava: all }
            """)
        #expect(plan.relations[0].access["ava"] == .everything)
        #expect(plan.relations[0].access["anon"] == .nothing)  // deny by default
    }

    @Test func reportsAnUnknownPersonaWithItsLine() {
        let error = mistake(personas + "\nrelations:\n  note:\n    access:\n      bob: read\n")
        #expect(error?.line == 8)
        #expect(error?.message.contains("unknown persona or role 'bob'") == true)
        #expect(error?.description.hasPrefix("plan.yml:8: ") == true)
    }

    @Test func reportsAnUnknownOperation() {
        let error = mistake(personas + "\nrelations:\n  note:\n    access:\n      ava: { select: all, truncate: all }\n")
        #expect(error?.line == 8)
        #expect(error?.message.contains("unknown operation 'truncate'") == true)
    }

    @Test func reportsAnUnknownScope() {
        let error = mistake(personas + "\nrelations:\n  note:\n    access:\n      ava: { select: most }\n")
        #expect(error?.message.contains("unknown scope 'most'") == true)
        #expect(error?.message.contains("(expected all, own, some, none, denied)") == true)
    }

    @Test func someIsForSelectOnly() throws {
        let plan = try AccessPlanParser(file: "plan.yml").parse(
            personas + "\nrelations:\n  note:\n    access:\n      ava: { select: some }\n")
        #expect(plan.relations.first?.access["ava"]?.select == .someRows)
        let error = mistake(personas + "\nrelations:\n  note:\n    access:\n      ava: { select: some, update: some }\n")
        #expect(error?.line == 8)
        #expect(error?.message.contains("'update: some' in relation 'note': some is for select only") == true, "\(String(describing: error))")
    }

    @Test func refusesOwnWithoutAnOwnerRule() {
        let error = mistake(personas + "\nrelations:\n  note:\n    access:\n      ava: { select: own }\n")
        #expect(error?.message.contains("no 'owner' rule") == true)
    }

    /// `shared:` names rows no one owns (templates every user sees); without an owner
    /// rule there is nothing for them to be apart from.
    @Test func readsSharedRowsAndRefusesThemWithoutAnOwnerRule() throws {
        let plan = try parse(personas + "\nrelations:\n  note:\n    owner: \"team_id = auth.uid()\"\n    shared: \"team_id is null\"\n    access:\n      ava: { select: some }\n")
        #expect(plan.relations.first?.shared == "team_id is null")
        let error = mistake(personas + "\nrelations:\n  note:\n    shared: \"team_id is null\"\n    access:\n      ava: { select: some }\n")
        #expect(error?.line == 7)
        #expect(error?.message.contains("'shared' of relation 'note' needs an 'owner'") == true, "\(String(describing: error))")
    }

    @Test func reportsUnknownKeys() {
        #expect(mistake(personas + "\nrelatoins: {}\n")?.message.contains("unknown key 'relatoins'") == true)
        #expect(mistake(personas + "\nrelations:\n  note:\n    acess: {}\n")?.message.contains("unknown key 'acess'") == true)
    }

    @Test func reportsInvalidYAMLWithItsLine() {
        let error = mistake("personas:\n  anon: { role: anon\n  ava: [\n")
        #expect(error?.message.hasPrefix("invalid YAML") == true)
        #expect(error?.line != nil)
    }

    @Test func requiresAnEmailForSignedInPersonas() {
        let error = mistake("personas:\n  ava: { role: authenticated }\n")
        #expect(error?.line == 2)
        #expect(error?.message.contains("needs an email") == true)
    }

    @Test func requiresChecksToExpectSomething() {
        let error = mistake(personas + "\nchecks:\n  - name: nothing\n    as: ava\n    sql: select 1\n")
        #expect(error?.message.contains("needs 'expect' or 'verify'") == true)
        let unknown = mistake(personas + "\nchecks:\n  - { name: x, as: zed, sql: select 1, expect: { value: '1' } }\n")
        #expect(unknown?.message.contains("unknown persona 'zed'") == true)
    }

    @Test func rendersMetadataAsJSON() throws {
        let plan = try parse("""
            personas:
              ava:
                role: authenticated
                email: ava@example.com
                metadata: { first_name: "Zoë \\"Z\\"", age: 30, tags: [a, b], verified: true }
            """)
        #expect(plan.personas[0].user?.metadataJSON == #"{"first_name":"Zoë \"Z\"","age":30,"tags":["a","b"],"verified":true}"#)
    }

    @Test func reportsAMissingFile() {
        #expect(throws: AccessPlanError.self) { try AccessPlanParser.load(path: "/nonexistent/plan.yml") }
    }
}
