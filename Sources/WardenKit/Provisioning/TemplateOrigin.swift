import Foundation

/// Where a `LocalCluster`'s data directory came from.
public enum TemplateOrigin: Equatable, Sendable {
    /// `initdb`, no cache asked for: the twin is not bootstrapped yet.
    case initdb
    /// Copied from the cache entry at `entry`: `initdb` and the twin's bootstrap skipped.
    case cached(entry: String)
    /// `initdb` and the twin's bootstrap ran, and the result was stored at `entry`;
    /// `replaced` says why an existing entry was not used (nil: there was none).
    case built(entry: String, replaced: String?)
    /// `initdb` and the twin's bootstrap ran, but the cache could not be used (why).
    case uncached(reason: String)

    /// Whether the data directory is already a bootstrapped twin.
    public var isBootstrapped: Bool { self != .initdb }

    /// One line for `dev`'s output; nil when no cache was asked for.
    public var line: String? {
        switch self {
        case .initdb:
            return nil
        case .cached(let entry):
            return "template: copied the bootstrapped cluster from the cache (\(entry)); initdb and bootstrap skipped"
        case .built(let entry, let replaced):
            let why = replaced.map { " (the cached one was unusable: \($0))" } ?? ""
            return "template: ran initdb and bootstrap, cached the result in \(entry)\(why)"
        case .uncached(let reason):
            return "template: ran initdb and bootstrap; not cached: \(reason)"
        }
    }
}
