import Foundation

/// Everything under a folder, read once with `lstat` (symbolic links are not
/// followed): its folders (parents first), regular files and links, each with its
/// path relative to the folder, mode, owner and size. What `DataDirectoryCopy` copies
/// and `TemplateManifest` lists.
struct DirectoryTree {
    struct Entry {
        let relative: String
        let mode: mode_t
        let owner: uid_t
        let group: gid_t
        let size: Int64
    }

    private(set) var folders: [Entry] = []
    private(set) var files: [Entry] = []
    private(set) var links: [Entry] = []

    /// Reads the tree under `path`; anything but a folder, a regular file or a link
    /// (a socket, a FIFO) is refused.
    init(_ path: String) throws {
        try read(path, relative: "")
    }

    private mutating func read(_ path: String, relative: String) throws {
        guard let folder = opendir(path) else {
            throw TemplateCacheProblem("\(path) cannot be listed: \(String(cString: strerror(errno)))")
        }
        defer { closedir(folder) }
        while let item = readdir(folder) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let full = "\(path)/\(name)", shown = relative.isEmpty ? name : "\(relative)/\(name)"
            var status = stat()
            guard lstat(full, &status) == 0 else { throw TemplateCacheProblem("\(full) cannot be read") }
            let entry = Entry(relative: shown, mode: status.st_mode, owner: status.st_uid, group: status.st_gid,
                              size: Int64(status.st_size))
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                folders.append(entry)
                try read(full, relative: shown)
            case S_IFREG: files.append(entry)
            case S_IFLNK: links.append(entry)
            default: throw TemplateCacheProblem("\(full) is neither a folder, a file nor a link")
            }
        }
    }
}
