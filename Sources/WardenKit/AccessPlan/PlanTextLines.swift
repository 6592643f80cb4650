/// A plan file's lines as UTF-8 bytes, split at each `\n` (a `\r\n` line keeps its
/// `\r`), numbered as YAML numbers them: the first is line 1, and empty lines count.
///
/// Bytes, not `Character`s: splitting a 14 KB plan into `Character`s and searching each
/// line with Foundation took about 1 ms of every `test` run before it connected
/// (issue 18); and `"\r\n"` is one `Character`, so a CRLF file was one long line.
struct PlanTextLines: Sequence {
    private let text: String

    init(_ text: String) { self.text = text }

    func makeIterator() -> IndexingIterator<[Substring.UTF8View]> {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).makeIterator()
    }

    /// Where `marker` (ASCII) first starts in `line`. (A loop: the standard library's
    /// `firstRange(of:)` took 2.5 ms on a 14 KB plan.)
    static func start(of marker: StaticString, in line: Substring.UTF8View) -> Substring.UTF8View.Index? {
        let pattern = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        guard let first = pattern.first else { return line.startIndex }
        var index = line.startIndex
        while let candidate = line[index...].firstIndex(of: first) {
            if line[candidate...].starts(with: pattern) { return candidate }
            index = line.index(after: candidate)
        }
        return nil
    }

    /// Whether `bytes` hold only whitespace (none at all included).
    static func isBlank(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        if bytes.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) { return true }
        // Rare: a non-ASCII byte; Unicode decides (a no-break space is whitespace).
        return bytes.contains { $0 >= 0x80 } && Substring(bytes).allSatisfy(\.isWhitespace)
    }
}
