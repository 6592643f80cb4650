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
    static func ownership(of expression: String) -> String {
        let all = topLevelBranches(of: unwrapped(expression))
        let branches = all.filter { nullTestedColumn(in: $0) == nil }
        if all.count > 1, branches.count == 1 { return branches[0] }
        let owning = branches.filter { $0.contains("auth.uid()") }
        guard branches.count > 1, owning.count == 1 else { return expression }
        return owning[0]
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

    /// The text split at each " OR " outside parentheses and quotes.
    private static func topLevelBranches(of text: String) -> [String] {
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
            } else if depth == 0, index + 4 <= characters.count, String(characters[index..<index + 4]) == " OR " {
                branches.append(String(characters[start..<index]))
                index += 4
                start = index
                continue
            }
            index += 1
        }
        branches.append(String(characters[start...]))
        return branches.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
