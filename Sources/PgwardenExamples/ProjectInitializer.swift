import Foundation

/// Writes a project's files into a folder: all of them, or none. It refuses, before
/// writing anything, when any file it would write already exists; when a write
/// fails part-way, it removes what it wrote.
public struct ProjectInitializer {
    /// What to write.
    public let example: ProjectExample
    /// The project folder (created when missing).
    public let folder: URL

    /// Writes `example` into `folder` (nothing happens until `write()`).
    public init(example: ProjectExample, folder: URL) {
        self.example = example
        self.folder = folder.standardizedFileURL
    }

    /// Writes the files; returns their paths relative to `folder`, in order.
    @discardableResult
    public func write() throws -> [String] {
        let manager = FileManager.default
        let targets = example.files.map { (file: $0, url: folder.appendingPathComponent($0.path)) }
        for target in targets where manager.fileExists(atPath: target.url.path) {
            throw ProjectInitError(path: target.url.path, reason: .exists)
        }
        var created: [URL] = []
        do {
            let folders = [folder] + ProjectExample.folders.map { folder.appendingPathComponent($0) }
                + targets.map { $0.url.deletingLastPathComponent() }
            for url in folders { created += try makeFolder(url) }
            for target in targets {
                guard manager.createFile(atPath: target.url.path, contents: Data(target.file.text.utf8)) else {
                    throw ProjectInitError(path: target.url.path, reason: .cannotWrite("permission denied or no space"))
                }
                created.append(target.url)
            }
        } catch {
            for url in created.reversed() { try? manager.removeItem(at: url) }
            if let error = error as? ProjectInitError { throw error }
            throw ProjectInitError(path: folder.path, reason: .cannotWrite("\(error.localizedDescription)"))
        }
        return targets.map(\.file.path)
    }

    /// Creates a folder and its missing parents; returns the ones it created, outermost first.
    private func makeFolder(_ url: URL) throws -> [URL] {
        var missing: [URL] = []
        var current = url.standardizedFileURL
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: current.path, isDirectory: &isFolder) {
            missing.insert(current, at: 0)
            current = current.deletingLastPathComponent()
        }
        guard isFolder.boolValue else {
            throw ProjectInitError(path: current.path, reason: .cannotWrite("it is a file, not a folder"))
        }
        for folder in missing {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            } catch {
                throw ProjectInitError(path: folder.path, reason: .cannotWrite("cannot create the folder"))
            }
        }
        return missing
    }
}
