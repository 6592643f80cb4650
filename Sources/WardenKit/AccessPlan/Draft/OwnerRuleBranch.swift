import Foundation

/// The ownership branch of a policy expression that ORs a public branch with ownership:
/// `((status = 'open'::text) OR (EXISTS (... memberships.user_id = auth.uid() ...)))`
/// gives `(EXISTS (...))`. Read policies often have that shape (anyone sees the open
/// listings, members see their own); taken whole as the owner rule, every open row was
/// every persona's own, and no other user's row was left to probe.
enum OwnerRuleBranch {
    /// The one top-level OR branch of `expression` that calls auth.uid(); the expression
    /// as it is when it has no top-level OR, or when more than one branch calls auth.uid().
    ///
    /// A branch that tests a column for NULL (`(team_id IS NULL) OR public.in_team(team_id)`)
    /// is the rows shared with every user (`nullTestedColumns`), not ownership: it is left
    /// out first. (Kept, every shared template was every persona's own, and any user
    /// rewriting the templates every team uses was `update: own`.)
    ///
    /// The same holds inside parentheses, at any depth: in `EXISTS (... WHERE ((a.id =
    /// article_id) AND (a.is_published OR (a.author_id = auth.uid()))))` a child row is
    /// the persona's where its parent's author is, not where the parent is published
    /// (taken whole, anon "owned" every section of a published article, and ben "saw
    /// other users' rows" in ava's published one).
    ///
    /// nil where a parenthesised OR's one branch calling auth.uid() reads no column
    /// (`(a.status = 'published' OR has_role(auth.uid(), 'admin'))` inside a child's
    /// EXISTS): an admin check, which says who may, not whose the row is.
    static func ownership(of whole: String) -> String? {
        guard let expression = withNestedOwnership(whole) else { return nil }
        let all = topLevelBranches(of: unwrapped(expression))
        let branches = all.filter { nullTestedColumn(in: $0) == nil }
        if all.count > 1, branches.count == 1 { return branches[0] }
        let owning = branches.filter { $0.contains("auth.uid()") }
        guard branches.count > 1, owning.count == 1 else { return expression }
        return owning[0]
    }

    /// `text` with each parenthesised OR of several branches, exactly one of which calls
    /// auth.uid(), replaced by that branch (innermost first), outside quotes.
    static func withNestedOwnership(_ text: String) -> String? {
        let characters = Array(text)
        var result = "", index = 0, quote: Character? = nil
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                result.append(character)
                if character == open { quote = nil }
                index += 1
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                result.append(character)
                index += 1
                continue
            }
            guard character == "(", let close = matchingClose(in: Array(characters[index...])) else {
                result.append(character)
                index += 1
                continue
            }
            guard let inner = withNestedOwnership(String(characters[(index + 1)..<(index + close)])) else { return nil }
            let branches = topLevelBranches(of: inner)
            let owning = branches.filter { $0.contains("auth.uid()") }
            if branches.count > 1, owning.count == 1 {
                let branch = owning[0]
                // Inside an expression that has more to it (an EXISTS, an AND), an admin
                // check is no ownership.
                if index > 0 || close + 1 < characters.count, !readsAColumn(branch) { return nil }
                result += unwrapped(branch) != branch ? branch : "(" + branch + ")"
            } else {
                result += "(" + inner + ")"
            }
            index += close + 1
        }
        return result
    }

    /// Whether `branch` names something besides calls, literals, casts and keywords: a
    /// column (`a.author_id`), where `has_role(auth.uid(), 'admin'::app_role)` names none.
    static func readsAColumn(_ branch: String) -> Bool {
        let keywords: Set<String> = ["and", "or", "not", "is", "null", "true", "false", "in", "any", "all", "text", "uuid"]
        var rest = branch.replacingOccurrences(of: #"'(?:[^']|'')*'"#, with: " ", options: .regularExpression)
        rest = rest.replacingOccurrences(of: #"::\s*[A-Za-z_][\w.]*(\[\])?"#, with: " ", options: .regularExpression)
        rest = rest.replacingOccurrences(of: #"[A-Za-z_][\w.]*\s*\("#, with: "(", options: .regularExpression)
        return rest.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }).contains { word in
            guard let first = word.first, first.isLetter || first == "_" else { return false }
            return !keywords.contains(word.lowercased())
        }
    }

    /// The columns `expression`'s top-level OR branches test for NULL (`(team_id IS NULL)`,
    /// as `pg_get_expr` prints it), where it has other branches too.
    static func nullTestedColumns(in expression: String) -> [String] {
        let branches = topLevelBranches(of: unwrapped(expression))
        guard branches.count > 1 else { return [] }
        return branches.compactMap(nullTestedColumn(in:))
    }

    /// The column a branch tests for NULL: `(team_id IS NULL)`, `"Owner" IS NULL`.
    private static func nullTestedColumn(in branch: String) -> String? {
        let text = unwrapped(branch)
        guard let match = text.wholeMatch(of: #/("(?:[^"]|"")+"|[a-z_][a-z0-9_]*)\s+IS\s+NULL/#) else { return nil }
        let name = String(match.output.1)
        return name.hasPrefix("\"") ? String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : name
    }

    /// The text inside one pair of parentheses that encloses all of it, else the text.
    private static func unwrapped(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("("), trimmed.hasSuffix(")"),
              let close = matchingClose(in: Array(trimmed)), close == trimmed.count - 1 else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }

    /// The index of the parenthesis that closes the one at index 0, outside quotes.
    private static func matchingClose(in characters: [Character]) -> Int? {
        var depth = 0, quote: Character? = nil
        for (index, character) in characters.enumerated() {
            if let open = quote { if character == open { quote = nil }; continue }
            switch character {
            case "'", "\"": quote = character
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// The text's top-level AND operands (inside one pair of parentheses enclosing all
    /// of it): `(has_role(auth.uid(), 'manager') AND (site_id IN (...)))` gives both.
    static func topLevelConjuncts(of text: String) -> [String] {
        topLevelBranches(of: unwrapped(text), at: " AND ")
    }

    /// The text split at each `separator` (" OR ") outside parentheses and quotes.
    private static func topLevelBranches(of text: String, at separator: String = " OR ") -> [String] {
        let separator = Array(separator)
        let characters = Array(text)
        var branches: [String] = [], start = 0, depth = 0, quote: Character? = nil, index = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if depth == 0, index + separator.count <= characters.count,
                      Array(characters[index..<index + separator.count]) == separator {
                branches.append(String(characters[start..<index]))
                index += separator.count
                start = index
                continue
            }
            index += 1
        }
        branches.append(String(characters[start...]))
        return branches.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
