import Foundation

/// Tells a mistyped section marker from an ordinary comment.
///
/// A comment that reads `migrate up` or `migrate down` once case, separators, extra
/// dashes, a `+` (sql-migrate's `-- +migrate Up`) and look-alike characters (full-width
/// forms, other colons, Cyrillic letters) are set aside, but is not exactly
/// `-- migrate:up` / `-- migrate:down`, would silently turn a file's down section into
/// part of its up section. The parser makes such a line an error.
enum MarkerSpelling {
    /// True when `line` is a comment that reads like a marker (strict markers too).
    static func looksLikeMarker(_ line: String) -> Bool {
        // NFKC folds full-width letters, dashes and colons (U+FF1A) into ASCII.
        let folded = String(line.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars.map(fold))
        var rest = Substring(folded).drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix("--") else { return false }
        rest = rest.drop { "-+#*! \t".contains($0) }
        guard rest.hasPrefix("migrate") else { return false }
        rest = rest.dropFirst("migrate".count).drop { ":;_-.=~ \t".contains($0) }
        for kind in ["up", "down"] where rest.hasPrefix(kind) {
            let after = rest.dropFirst(kind.count).first
            return after.map { !$0.isLetter } ?? true
        }
        return false
    }

    /// Maps look-alike characters NFKC leaves alone onto the ASCII they imitate.
    private static func fold(_ scalar: Unicode.Scalar) -> Character {
        switch scalar.value {
        case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63: return "-"  // hyphens, dashes, minus
        case 0x02D0, 0x02F8, 0x2236, 0xA789, 0xFE13, 0xFE55, 0x0589, 0x05C3: return ":"  // colon look-alikes
        case 0x0430: return "a"
        case 0x0435: return "e"
        case 0x043E, 0x03BF: return "o"
        case 0x0440, 0x03C1: return "p"
        case 0x0441: return "c"
        case 0x0456, 0x0131: return "i"
        case 0x0501: return "d"
        case 0x0261: return "g"
        case 0x0433: return "r"
        case 0x0442: return "t"
        case 0x043C: return "m"
        case 0x0443, 0x03C5, 0x1D1C: return "u"
        case 0x051D, 0x0461: return "w"
        case 0x0578, 0x057C: return "n"
        default: return Character(scalar)
        }
    }
}
