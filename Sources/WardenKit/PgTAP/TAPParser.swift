/// Reads the TAP that pgTAP functions return (one text value per row, possibly many
/// lines): test lines (`ok 1 - desc`, `not ok 2 - desc # TODO why`), diagnostics
/// (`# have: 1`), the plan (`1..N`, `1..0 # Skipped: why`) and `Bail out!`. Lines it
/// does not know (other rows a test file selects) are ignored, as TAP consumers do.
///
/// TAP 13 (https://testanything.org/tap-version-13-specification.html); pgTAP writes
/// a `#` in a description as `\#` (pgTAP's `ok()`), which is read back as `#`.
package struct TAPParser: Sendable {
    /// One test line and what followed it.
    package struct Assertion: Sendable, Equatable {
        package var number: Int?
        package var description: String
        package var ok: Bool
        package var directive: Directive?
        package var diagnostics: [String] = []
        /// The file line of the statement whose output held it.
        package var line: Int?
    }

    package enum Directive: Sendable, Equatable {
        case todo(String)
        case skip(String)
    }

    package private(set) var assertions: [Assertion] = []
    /// `N` of the `1..N` plan line, when one was read.
    package private(set) var planned: Int?
    /// Where the plan line came from.
    package private(set) var planLine: Int?
    /// The reason after `Bail out!`, when a test bailed out.
    package private(set) var bailOut: String?
    /// Diagnostics printed before any test line.
    package private(set) var leadingDiagnostics: [String] = []

    package init() {}

    /// Reads one text value (split into lines) produced by the statement at `line`.
    package mutating func read(_ text: String, line: Int?) {
        for piece in text.split(separator: "\n", omittingEmptySubsequences: false) {
            readLine(String(piece), line: line)
        }
    }

    mutating func readLine(_ raw: String, line: Int?) {
        let text = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
        if text.hasPrefix("#") {
            let diagnostic = String(text.dropFirst().drop { $0 == " " })
            if assertions.isEmpty { leadingDiagnostics.append(diagnostic) } else {
                assertions[assertions.count - 1].diagnostics.append(diagnostic)
            }
        } else if let assertion = Self.assertion(text, line: line) {
            assertions.append(assertion)
        } else if let count = Self.plan(text) {
            planned = count
            planLine = line
        } else if text.hasPrefix("Bail out!") {
            bailOut = String(text.dropFirst("Bail out!".count).drop { $0 == " " })
        }
    }

    /// `1..N` (with anything after a space, e.g. `# Skipped`) -> N.
    static func plan(_ text: String) -> Int? {
        guard text.hasPrefix("1..") else { return nil }
        let digits = text.dropFirst(3).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let rest = text.dropFirst(3 + digits.count)
        guard rest.isEmpty || rest.first == " " else { return nil }
        return Int(digits)
    }

    /// `ok`/`not ok`, an optional number, an optional `-`, the description, and an
    /// optional `# TODO`/`# SKIP` directive.
    static func assertion(_ text: String, line: Int?) -> Assertion? {
        let ok: Bool
        var rest: Substring
        if text == "ok" || text.hasPrefix("ok ") {
            ok = true
            rest = text.dropFirst(2)
        } else if text == "not ok" || text.hasPrefix("not ok ") {
            ok = false
            rest = text.dropFirst(6)
        } else {
            return nil
        }
        rest = rest.drop { $0 == " " }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let number = Int(digits)
        rest = rest.dropFirst(digits.count).drop { $0 == " " }
        if rest.hasPrefix("-") { rest = rest.dropFirst().drop { $0 == " " } }
        let (description, directive) = splitDirective(rest)
        return Assertion(number: number, description: description, ok: ok, directive: directive, line: line)
    }

    /// Splits `desc # TODO why` at the first unescaped `#` that starts a TODO or SKIP
    /// directive; `\#` in the description is a literal `#`.
    static func splitDirective(_ text: Substring) -> (String, Directive?) {
        var description = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, text[next] == "#" {
                description.append("#")
                index = text.index(after: next)
                continue
            }
            if character == "#", let directive = directive(text[next...]) {
                return (description.trimmingTrailingSpaces(), directive)
            }
            description.append(character)
            index = next
        }
        return (description.trimmingTrailingSpaces(), nil)
    }

    /// ` TODO reason` or ` SKIP reason` (any case; `skipped` too) after a `#`.
    static func directive(_ text: Substring) -> Directive? {
        let words = text.drop { $0 == " " }
        let keyword = words.prefix { $0.isLetter }.lowercased()
        let reason = String(words.dropFirst(keyword.count).drop { $0 == " " || $0 == ":" })
        if keyword == "todo" { return .todo(reason) }
        if keyword.hasPrefix("skip") { return .skip(reason) }
        return nil
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
