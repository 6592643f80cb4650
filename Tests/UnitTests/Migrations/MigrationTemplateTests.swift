import Foundation
import Testing
import WardenKit
import TestSupport

@Suite struct MigrationTemplateTests {
    @Test func cleansNames() {
        #expect(MigrationTemplate.fileName(for: "Add listing index") == "add_listing_index")
        #expect(MigrationTemplate.fileName(for: "create-listing!!v2") == "create_listing_v2")
        #expect(MigrationTemplate.fileName(for: "  ---  ") == nil)
        #expect(MigrationTemplate.fileName(for: "_x_") == "x")
    }

    @Test func versionsAreUTCTimestamps() {
        #expect(MigrationTemplate.version(at: Date(timeIntervalSince1970: 0)) == "19700101000000")
        #expect(MigrationTemplate.version(at: Date(timeIntervalSince1970: 1_795_000_000)) == "20261118110640")
    }

    @Test func createsAFileThatParsesButMustBeFilledIn() throws {
        let folder = try TemporaryFolder()
        let target = folder.path + "/new-folder"
        let moment = Date(timeIntervalSince1970: 0)
        let first = try MigrationTemplate.create(name: "Create listing", folder: target, now: moment)
        let second = try MigrationTemplate.create(name: "Create listing", folder: target, now: moment)
        #expect(first == "\(target)/19700101000000_create_listing.sql")
        #expect(second == "\(target)/19700101000001_create_listing.sql")
        let text = try String(contentsOfFile: first, encoding: .utf8)
        #expect(text.hasPrefix("-- migrate:up\n"))
        #expect(text.contains("-- migrate:down\n"))
        // Empty until someone writes the up section.
        #expect(throws: MigrationInputError.self) { try MigrationDirectory.load(target) }
    }
}
