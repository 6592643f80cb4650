/// A name as a statement writes it: schema-qualified or not, each part folded as
/// PostgreSQL folds it (unquoted: lower case; quoted: exact).
struct WrittenName: Equatable {
    var schema: String?
    var name: String

    /// Whether it names `schema.name`: an unqualified name is taken to (it is resolved by
    /// the search_path when the migration runs, which usually puts `public` first).
    func names(schema: String, name: String) -> Bool {
        self.name == name && (self.schema == nil || self.schema == schema)
    }
}

/// What one migration statement does to a named object, as far as finding where an
/// object got its current definition needs: `create`, `alter ... rename to`, `alter ...
/// set schema`, another `alter`, or `drop` of a table, view, materialized view, foreign
/// table, function (procedure, routine), extension or policy. Other statements are nil.
struct ObjectStatement: Equatable {
    enum Action: Equatable {
        case create, alter, drop
        case rename(to: String)
        case setSchema(String)
    }

    /// As `LintFinding.ObjectKind`'s raw values, plus `policy`.
    var kind: String
    var name: WrittenName
    /// A policy's table.
    var table: WrittenName?
    var action: Action
    /// A function's input arguments, counted in its parenthesized list (`out` ones left
    /// out, as a signature leaves them); nil when there is no list or it was not read to
    /// its end.
    var argumentCount: Int?

    init?(_ text: String) {
        var cursor = TokenCursor(tokens: SQLHeadTokens.tokens(text))
        let verb: String
        if cursor.accept("create") { verb = "create" } else if cursor.accept("alter") { verb = "alter" }
        else if cursor.accept("drop") { verb = "drop" } else { return nil }
        if verb == "create", cursor.accept("or") { guard cursor.accept("replace") else { return nil } }
        var modifiers: Set<String> = []
        while let word = cursor.word(in: ["temp", "temporary", "unlogged", "recursive", "global", "local", "materialized", "foreign",
                                          "trusted", "procedural", "constraint"]) {
            modifiers.insert(word)
        }
        guard let kindWord = cursor.word(in: ["table", "view", "function", "procedure", "routine", "extension", "policy"]) else {
            return nil
        }
        switch kindWord {
        case "table": kind = modifiers.contains("foreign") ? "foreign table" : "table"
        case "view": kind = modifiers.contains("materialized") ? "materialized view" : "view"
        case "procedure", "routine": kind = "function"
        default: kind = kindWord
        }
        if verb == "create" ? cursor.accept("if", "not", "exists") : cursor.accept("if", "exists") {}
        if verb == "alter", kind == "table" || kind == "foreign table" { _ = cursor.accept("only") }
        if kind == "policy" {
            guard let policy = cursor.identifier() else { return nil }
            name = WrittenName(name: policy)
            guard cursor.accept("on"), let table = cursor.qualifiedName() else { return nil }
            self.table = table
        } else {
            guard let object = cursor.qualifiedName() else { return nil }
            name = object
            if kind == "function" { argumentCount = cursor.skipParentheses() }
        }
        switch verb {
        case "create": action = .create
        case "drop": action = .drop
        default:
            if cursor.accept("rename", "to"), let new = cursor.identifier() {
                action = .rename(to: new)
            } else if cursor.accept("set", "schema"), let schema = cursor.identifier() {
                action = .setSchema(schema)
            } else {
                action = .alter
            }
        }
    }
}

/// Reads tokens in order.
private struct TokenCursor {
    let tokens: [SQLToken]
    var index = 0

    /// Consumes the unquoted words, all of them or none.
    mutating func accept(_ words: String...) -> Bool {
        guard index + words.count <= tokens.count,
              words.enumerated().allSatisfy({ tokens[index + $0.offset].isWord($0.element) }) else { return false }
        index += words.count
        return true
    }

    mutating func word(in words: Set<String>) -> String? {
        guard index < tokens.count, !tokens[index].quoted, tokens[index].isName, words.contains(tokens[index].text) else {
            return nil
        }
        index += 1
        return tokens[index - 1].text
    }

    mutating func identifier() -> String? {
        guard index < tokens.count, tokens[index].isName else { return nil }
        index += 1
        return tokens[index - 1].text
    }

    /// `name` or `schema.name`.
    mutating func qualifiedName() -> WrittenName? {
        guard let first = identifier() else { return nil }
        guard index < tokens.count, tokens[index].text == ".", !tokens[index].isName else { return WrittenName(name: first) }
        index += 1
        guard let second = identifier() else { return nil }
        return WrittenName(schema: first, name: second)
    }

    /// Skips a parenthesized list (a function's arguments), when one comes next, and
    /// returns how many of its items do not begin with `out` (nil: no list, or the
    /// tokens ran out before it closed).
    mutating func skipParentheses() -> Int? {
        guard index < tokens.count, tokens[index].text == "(", !tokens[index].isName else { return nil }
        var depth = 0
        var inputs = 0
        var itemStart = true
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if !token.isName && token.text == "(" { depth += 1; if depth == 1 { itemStart = true; continue } }
            if !token.isName && token.text == ")" { depth -= 1; if depth == 0 { return inputs } }
            if depth == 1 && !token.isName && token.text == "," { itemStart = true; continue }
            if depth == 1 && itemStart {
                itemStart = false
                if !token.isWord("out") { inputs += 1 }
            }
        }
        return nil
    }
}
