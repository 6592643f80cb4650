import Foundation

/// Folders a test writes its files in, all under one folder of this test process's
/// (`<temporary directory>/pgwarden-tests-<pid>`), which is removed when the process
/// exits: a test that returns early, or a helper that hands a folder to many tests,
/// leaves nothing behind in the temporary directory.
public enum TestFolder {
    private static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { TestFolder.removeAll() }
        return root
    }()

    /// A new, not yet created, path: `<root>/<prefix>-<UUID>`.
    public static func url(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    private static func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }
}
