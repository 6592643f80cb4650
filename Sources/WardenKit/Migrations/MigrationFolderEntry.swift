import Foundation

/// Checks a folder entry's type before anything opens it: opening a FIFO blocks until
/// a writer comes, and devices and sockets are no migration. Uses `lstat`/`stat`, which
/// never open the file.
enum MigrationFolderEntry {
    /// What an entry is.
    enum Kind: Equatable {
        case regularFile, folder
        /// A FIFO, socket or device: named in the error.
        case special(String)
        /// A symbolic link whose target is missing.
        case dangling(target: String)
        /// `stat` failed for another reason (the error names it when the file is read).
        case unknown
    }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        if stat(path, &info) != 0 {
            let reason = errno
            var link = stat()
            if reason == ENOENT, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                return .dangling(target: target)
            }
            return .unknown
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .folder
        case S_IFIFO: return .special("FIFO (named pipe)")
        case S_IFSOCK: return .special("socket")
        case S_IFCHR: return .special("character device")
        case S_IFBLK: return .special("block device")
        default: return .special("special file")
        }
    }

    /// Throws for an entry pgwarden must not open; false for a folder (ignored).
    static func check(_ path: String, shown: String) throws -> Bool {
        switch kind(path) {
        case .regularFile, .unknown: return true
        case .folder: return false
        case .special(let kind): throw MigrationInputError.notARegularFile(file: shown, kind: kind)
        case .dangling(let target): throw MigrationInputError.danglingSymlink(file: shown, target: target)
        }
    }
}

/// Strict UTF-8 decoding that says where the first invalid byte, or NUL byte, is.
enum UTF8Validation {
    /// Decodes `data` (dropping a leading byte-order mark); throws `.notUTF8` or
    /// `.nulByte` with the line of the first bad byte. Makes one copy: the text.
    static func decode(_ data: Data, file: String) throws -> String {
        try data.withUnsafeBytes { raw -> String in
            var bytes = raw.bindMemory(to: UInt8.self)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeBufferPointer(rebasing: bytes[3...]) }
            if let base = bytes.baseAddress, let nul = memchr(base, 0, bytes.count) {
                let offset = UnsafeRawPointer(nul) - UnsafeRawPointer(base)
                throw MigrationInputError.nulByte(file: file, line: line(of: offset, in: bytes))
            }
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            var iterator = bytes.makeIterator()
            var decoder = Unicode.UTF8()
            var line = 1
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
                case .emptyInput: return String(decoding: bytes, as: UTF8.self)
                case .error: throw MigrationInputError.notUTF8(file: file, line: line)
                }
            }
        }
    }

    static func line(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        1 + bytes[0..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
