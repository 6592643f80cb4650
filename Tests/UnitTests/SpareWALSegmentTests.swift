import Foundation
import Testing
@testable import WardenKit

/// The template keeps the WAL segments that have been written (their first page names
/// their own position) and loses the spares initdb renamed for reuse.
@Suite struct SpareWALSegmentTests {
    private let megabyte = 1 << 20

    /// A 1 MB segment file whose first page header names `position`.
    private func segment(_ folder: URL, _ name: String, naming position: UInt64) throws {
        var bytes = [UInt8](repeating: 0, count: megabyte)
        withUnsafeBytes(of: position) { bytes.replaceSubrange(8..<16, with: $0) }
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    @Test func sparesGoWrittenSegmentsAndOtherFilesStay() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-wal-\(UUID().uuidString)")
        let wal = data.appendingPathComponent("pg_wal")
        try FileManager.default.createDirectory(at: wal.appendingPathComponent("archive_status"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let mb = UInt64(megabyte)
        try segment(wal, "000000010000000000000007", naming: 7 * mb)  // the checkpoint's
        try segment(wal, "000000010000000000000008", naming: 2 * mb)  // a spare: segment 2 renamed
        try segment(wal, "000000010000000000000009", naming: 0)  // never written at all
        try segment(wal, "000000010000000100000003", naming: (0x1000 + 3) * mb)  // log 1: 4,096 segments a log
        try Data("not a segment".utf8).write(to: wal.appendingPathComponent("00000001000000000000000A.partial"))
        LocalCluster.removeSpareWALSegments(of: data)
        let left = try FileManager.default.contentsOfDirectory(atPath: wal.path).sorted()
        #expect(left == ["000000010000000000000007", "00000001000000000000000A.partial", "000000010000000100000003", "archive_status"])
    }
}
