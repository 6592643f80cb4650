import Foundation
import Testing
@testable import WardenKit

/// Where a throwaway server's directory goes when `/dev/shm` is mounted `noexec`, and
/// how such a mount is recognised.
@Suite struct ProgramMountTests {
    @Test func aNoexecDevShmIsPassedOverForTMPDIR() {
        let base = LocalCluster.temporaryBase(
            environment: ["TMPDIR": "/var/tmp/pgw-runs"], allowsPrograms: { $0 != "/dev/shm" })
        #expect(base == "/var/tmp/pgw-runs")
        #expect(LocalCluster.temporaryBase(environment: [:], allowsPrograms: { _ in false }) == "/tmp")
    }

    @Test func anExplicitFolderIsKeptAsTheUserChoseIt() {
        // A noexec PGWARDEN_TMPDIR is refused at start with a clear error, not silently replaced.
        let base = LocalCluster.temporaryBase(environment: ["PGWARDEN_TMPDIR": "/mnt/runs"], allowsPrograms: { _ in false })
        #expect(base == "/mnt/runs")
    }

    @Test func theTestsOwnFolderAllowsProgramsAndAMissingPathDoesNot() throws {
        // This test's executable runs from its folder, so that file system allows programs.
        let folder = try #require(Bundle.main.executableURL).deletingLastPathComponent().path
        #expect(ProgramMount.allowsPrograms(at: folder))
        #expect(!ProgramMount.allowsPrograms(at: "/nonexistent-\(UUID().uuidString)"))
    }

    @Test func theRefusalNamesTheFolderAndTheWayOut() {
        let message = ProvisioningError.programsNotAllowed(directory: "/mnt/runs").description
        #expect(message.contains("/mnt/runs") && message.contains("noexec") && message.contains("PGWARDEN_TMPDIR"))
    }
}
