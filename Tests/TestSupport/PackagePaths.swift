import Foundation

/// Paths inside this package (the repository).
public enum PackagePaths {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Electric Ride's migrations folder.
    public static var electricRideMigrations: String { root.appendingPathComponent("migrations").path }
}
