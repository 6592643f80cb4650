import Foundation

/// Fast whole-buffer questions about UTF-8 text, for files of tens of megabytes.
enum UTF8Bytes {
    /// True when every byte is ASCII (then scalar offsets equal byte offsets).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        let wide = bytes.count & ~7
        while offset < wide {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if bytes[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// True when `byte` occurs in `text` (memchr).
    static func contains(_ text: String, _ byte: UInt8) -> Bool {
        var text = text
        return text.withUTF8 { contains($0, byte) }
    }

    /// True when `byte` occurs in `bytes` (memchr).
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }

    /// The offsets just after each `\n` (memchr from one to the next).
    static func lineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard let base = bytes.baseAddress else { return [] }
        var breaks: [Int] = []
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
            offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
            breaks.append(offset)
        }
        return breaks
    }
}
