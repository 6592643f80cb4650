/// One token of a statement's head: a word (an unquoted name or keyword, folded to lower
/// case as PostgreSQL folds unquoted identifiers: ASCII letters only), a quoted
/// identifier (exactly as written, `""` read as `"`), or anything else (a symbol, a
/// number, `'` for a string literal).
struct SQLToken: Equatable {
    var text: String
    var quoted = false
    /// A word or a quoted identifier: something that may be a name.
    var isName = false

    /// The unquoted word `word` (lower case).
    func isWord(_ word: String) -> Bool { isName && !quoted && text == word }
}

/// The first tokens of a statement, comments skipped, for reading which object it
/// creates or alters. Stops at `limit` tokens or at a dollar-quoted body (nothing a
/// locator needs comes after one).
enum SQLHeadTokens {
    static func tokens(_ text: String, limit: Int = 80) -> [SQLToken] {
        let scalars = Array(text.unicodeScalars.prefix(8_192))
        var tokens: [SQLToken] = []
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
            !scalar.isASCII || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$"
        }
        while index < scalars.count, tokens.count < limit {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{0C}" {
                index += 1
            } else if scalar == "-", at(1) == "-" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", at(1) == "*" {
                var depth = 0
                repeat {
                    if at(0) == "/", at(1) == "*" { depth += 1; index += 2 }
                    else if at(0) == "*", at(1) == "/" { depth -= 1; index += 2 }
                    else { index += 1 }
                } while depth > 0 && index < scalars.count
            } else if scalar == "\"" {
                var name = String.UnicodeScalarView()
                index += 1
                while index < scalars.count {
                    if scalars[index] == "\"" {
                        if at(1) == "\"" { name.append("\""); index += 2; continue }
                        index += 1
                        break
                    }
                    name.append(scalars[index])
                    index += 1
                }
                tokens.append(SQLToken(text: String(name), quoted: true, isName: true))
            } else if scalar == "'" {
                let escapes = tokens.last.map { !$0.quoted && ($0.text == "e") } ?? false
                index += 1
                while index < scalars.count {
                    if escapes, scalars[index] == "\\" { index += 2; continue }
                    if scalars[index] == "'" {
                        if at(1) == "'" { index += 2; continue }
                        index += 1
                        break
                    }
                    index += 1
                }
                tokens.append(SQLToken(text: "'"))
            } else if scalar == "$", at(1).map({ $0 == "$" || !($0.isASCII && ("0"..."9").contains($0)) }) ?? false {
                break  // a dollar-quoted body
            } else if isNamePart(scalar), !("0"..."9").contains(scalar), scalar != "$" {
                var word = String.UnicodeScalarView()
                while index < scalars.count, isNamePart(scalars[index]) {
                    let part = scalars[index]
                    word.append(("A"..."Z").contains(part) ? Unicode.Scalar(part.value + 32)! : part)
                    index += 1
                }
                tokens.append(SQLToken(text: String(word), isName: true))
            } else {
                tokens.append(SQLToken(text: String(scalar)))
                index += 1
            }
        }
        return tokens
    }
}
