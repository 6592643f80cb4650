import Foundation

/// A `DO` block that only creates one event trigger, in the shapes that make a migration
/// safe to run again: `do $$ begin create event trigger ...; exception when
/// duplicate_object then null; end $$;`, or behind `if not exists (select 1 from
/// pg_event_trigger where evtname = '...')`. A psychology clinic's first migration
/// wrapped Supabase's documented trigger so (round thirty-six). The twin runs such a
/// block as it runs a bare `CREATE EVENT TRIGGER` (`EventTriggerLift`), the whole block
/// with postgres a superuser, so nothing else may be in it: besides the one statement,
/// only the words of those guards (a block doing anything more runs as it is, and
/// PostgreSQL refuses its event trigger as on a server without supautils).
enum EventTriggerBlock {
    /// Whether `statement` (one statement's text, from its first token) is such a block.
    static func isOne(_ statement: String) -> Bool {
        // Every statement of a migration is asked: its first bytes first, no regex.
        guard startsWithDo(statement), let body = body(ofDo: statement) else { return false }
        let text = withoutComments(body).lowercased()
        let creations = text.ranges(of: /create\s+event\s+trigger\b/)
        guard creations.count == 1, let creation = creations.first,
              let end = text[creation.upperBound...].firstIndex(of: ";") else { return false }
        let rest = String(text[..<creation.lowerBound]) + " " + String(text[text.index(after: end)...])
        let words = rest.replacing(/'(?:[^']|'')*'/, with: " ").split { !($0.isLetter || $0.isNumber || $0 == "_") }
        return words.allSatisfy { guardWords.contains(String($0)) }
    }

    /// The words of the guards a block may hold around its one statement.
    private static let guardWords: Set<String> = [
        "begin", "end", "if", "not", "exists", "select", "from", "where", "and", "then", "exception", "when",
        "duplicate_object", "others", "null", "1", "pg_catalog", "pg_event_trigger", "evtname", "raise", "notice",
    ]

    /// Whether the first word is `DO` (`do $$`, `DO\n`).
    private static func startsWithDo(_ statement: String) -> Bool {
        let head = Array(statement.utf8.prefix(3))
        guard head.count == 3, head[0] | 0x20 == UInt8(ascii: "d"), head[1] | 0x20 == UInt8(ascii: "o") else { return false }
        return [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "$")].contains(head[2])
    }

    /// The body of `do [language plpgsql] $tag$ ... $tag$` (plpgsql, the default), or nil.
    private static func body(ofDo statement: String) -> String? {
        guard let match = statement.firstMatch(
            of: /(?i)^do\s+(?:language\s+plpgsql\s+)?(\$[A-Za-z_0-9]*\$)/) else { return nil }
        let tag = String(match.1)
        let rest = statement[match.range.upperBound...]
        guard let close = rest.range(of: tag) else { return nil }
        let after = rest[close.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard after.isEmpty || after == ";" || after.lowercased().hasPrefix("language plpgsql") else { return nil }
        return String(rest[..<close.lowerBound])
    }

    /// `text` without `--` and `/* */` comments (outside quotes: a body with a quote in a
    /// comment is not one of the guarded shapes anyway).
    private static func withoutComments(_ text: String) -> String {
        text.replacing(/--[^\n]*/, with: " ").replacing(/\/\*[\s\S]*?\*\//, with: " ")
    }
}
