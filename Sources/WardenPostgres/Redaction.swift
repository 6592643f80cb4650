import Foundation

/// Keeps passwords out of everything pgwarden prints.
public enum Redaction {
    /// `postgres://user:secret@host/db?password=x` becomes `postgres://user:****@host/db?password=****`.
    public static func redactURL(_ url: String) -> String {
        var text = url
        if let schemeEnd = text.range(of: "://") {
            let afterScheme = text[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
            let authority = afterScheme[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "****")
            }
        }
        return redactQueryPassword(text)
    }

    /// Replaces every `password=...` value in a URL query or conninfo string.
    static func redactQueryPassword(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "password=") {
            result += rest[..<range.upperBound]
            result += "****"
            rest = rest[range.upperBound...]
            let end = rest.firstIndex(where: { $0 == "&" || $0 == " " }) ?? rest.endIndex
            rest = rest[end...]
        }
        return result + rest
    }

    /// Removes `secret` wherever it appears, and redacts credentials in any URL-like text.
    public static func scrub(_ text: String, secret: String?) -> String {
        var result = text
        if let secret, !secret.isEmpty {
            result = result.replacingAll(secret, with: "****")
        }
        return redactEmbeddedURLs(redactQueryPassword(result))
    }

    /// Best-effort password of an unparsable string, so its error can still be scrubbed.
    static func passwordCandidate(in conninfo: String) -> String? {
        if let schemeEnd = conninfo.range(of: "://") {
            let afterScheme = conninfo[schemeEnd.upperBound...]
            if let at = afterScheme.lastIndex(of: "@"), let colon = afterScheme[..<at].firstIndex(of: ":") {
                return String(afterScheme[afterScheme.index(after: colon)..<at])
            }
        }
        if let range = conninfo.range(of: "password=") {
            let rest = conninfo[range.upperBound...]
            let end = rest.firstIndex(where: { $0 == " " || $0 == "&" }) ?? rest.endIndex
            return String(rest[..<end]).trimmingCharacters(in: "'")
        }
        return nil
    }

    private static func redactEmbeddedURLs(_ text: String) -> String {
        guard text.contains("://") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains("://") && word.contains("@") ? redactURL(String(word)) : String(word)
        }.joined(separator: " ")
    }

    /// Quotes a conninfo value when it is empty or has spaces, quotes or backslashes.
    static func quoteConninfoValue(_ value: String) -> String {
        if !value.isEmpty && !value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) {
            return value
        }
        let escaped = value.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        return "'\(escaped)'"
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}
