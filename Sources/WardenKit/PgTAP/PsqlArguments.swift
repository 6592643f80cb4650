/// A psql meta-command's arguments read as psql reads them (the psql manual,
/// "Meta-Commands"): separated by whitespace; in single quotes `''` is a quote and `\n`,
/// `\t`, `\b`, `\r`, `\f`, `\digits` (octal) and `\xdigits` (hex) are C escapes (a
/// backslash before any other character quotes it); double-quoted text is kept with its
/// quotes; `:name`, `:'name'` and `:"name"` outside quotes are the variable's value,
/// as it is, as a literal or as an identifier (an unknown variable stays as written).
/// Backquoted text is a shell command, which pgwarden never runs.
enum PsqlArguments {
    /// Why `text` cannot be read: it runs a shell command.
    static func refusal(_ text: Substring) -> String? {
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "`" {
                return "runs a shell command (backquotes), which pgwarden does not (it runs no shell); "
                    + "write the value in the file"
            }
        }
        return nil
    }

    /// The arguments of `text` (what follows the command's name), with `variables` interpolated.
    static func split(_ text: Substring, variables: [String: String] = [:]) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var arguments: [String] = []
        var current: String?
        var index = 0
        func append(_ piece: String) { current = (current ?? "") + piece }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r":
                if let done = current { arguments.append(done) }
                current = nil
                index += 1
            case "'":
                index += 1
                append(singleQuoted(scalars, &index))
            case "\"":
                var end = index + 1
                while end < scalars.count {
                    end += 1
                    guard scalars[end - 1] == "\"" else { continue }
                    if end < scalars.count, scalars[end] == "\"" { end += 1 } else { break }
                }
                append(String(String.UnicodeScalarView(scalars[index..<end])))
                index = end
            case ":":
                if let (value, end) = PsqlVariables.reference(in: scalars, at: index, variables: variables) {
                    append(value)
                    index = end
                } else {
                    append(":")
                    index += 1
                }
            default:
                append(String(scalar))
                index += 1
            }
        }
        if let done = current { arguments.append(done) }
        return arguments
    }

    /// The text of a single-quoted argument from `index` (just after the opening quote)
    /// to its closing quote, which `index` is left after.
    private static func singleQuoted(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String {
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "'" {
                guard index < scalars.count, scalars[index] == "'" else { break }
                index += 1
                result.append("'")
            } else if scalar == "\\", index < scalars.count {
                let next = scalars[index]
                index += 1
                switch next {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "b": result.append("\u{8}")
                case "r": result.append("\r")
                case "f": result.append("\u{C}")
                case "0"..."7":
                    var code = next.value - 48
                    var count = 1
                    while count < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                        code = code * 8 + scalars[index].value - 48
                        index += 1
                        count += 1
                    }
                    result.append(Unicode.Scalar(code) ?? "?")
                case "x":
                    var code: UInt32 = 0
                    var count = 0
                    while count < 2, index < scalars.count, let digit = Int(String(scalars[index]), radix: 16) {
                        code = code * 16 + UInt32(digit)
                        index += 1
                        count += 1
                    }
                    if count == 0 { result.append("x") } else { result.append(Unicode.Scalar(code) ?? "?") }
                default: result.append(next)
                }
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
