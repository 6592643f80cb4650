import CLibPQ
import Foundation

/// Keeps passwords and every other secret option out of everything pgwarden prints.
///
/// What is shown of a connection string is rebuilt from the options libpq parsed
/// (`PQconninfoParse`), never cut out of the text the user typed, so no spelling of a
/// password (unencoded `?` in a URL, a percent-encoded key such as `pass%77ord`, a
/// quoted value) survives into output. Strings libpq cannot parse are never shown.
package enum Redaction {
    /// What stands for a password.
    package static let mask = "****"

    /// A connection URL (or `key=value` string) as it may be shown: rebuilt from
    /// libpq's parse with the password masked; only `****` when libpq cannot parse it.
    package static func redactURL(_ url: String) -> String {
        (try? ConnectionSettings(url))?.redacted ?? mask
    }

    /// Options that carry the structure of a URL; the rest go into its query.
    private static let urlParts: Set<String> = ["user", "password", "host", "port", "dbname"]

    /// A URL rebuilt from parsed options, with the password masked
    /// (`postgresql://alice:****@db:5432/app?sslmode=require`).
    static func url(scheme: String, options: [String: String]) -> String {
        var text = scheme
        if options["user"] != nil || options["password"] != nil {
            text += percentEncoded(options["user"] ?? "")
            if options["password"] != nil { text += ":" + mask }
            text += "@"
        }
        var query: [(String, String)] = []
        if let host = options["host"], isPlainHost(host) {
            text += host
            if let port = options["port"] {
                if port.allSatisfy(\.isASCIIDigit) { text += ":" + port } else { query.append(("port", percentEncoded(port))) }
            }
        } else {
            if let host = options["host"] { query.append(("host", percentEncoded(host))) }
            if let port = options["port"] { query.append(("port", percentEncoded(port))) }
        }
        text += "/" + percentEncoded(options["dbname"] ?? "")
        for key in options.keys.sorted() where !urlParts.contains(key) {
            query.append((key, isSecret(key) ? mask : percentEncoded(options[key] ?? "")))
        }
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        }
        return text
    }

    /// A `key=value` string rebuilt from parsed options (sorted, quoted), password masked.
    static func keyValue(options: [String: String]) -> String {
        options.keys.sorted().map { key in
            "\(key)=\(isSecret(key) ? mask : quoteConninfoValue(options[key] ?? ""))"
        }.joined(separator: " ")
    }

    /// A `key=value` string of options, every value quoted as needed, nothing masked:
    /// the string handed to libpq.
    static func keyValueUnmasked(options: [String: String]) -> String {
        options.keys.sorted().map { "\($0)=\(quoteConninfoValue(options[$0] ?? ""))" }.joined(separator: " ")
    }

    /// A URL that libpq read, but not as the user meant: an unencoded `@` or `/` in
    /// the password turns parts of it into the host, port or database name. Such a
    /// URL is shown as its scheme only.
    static func misreadURL(scheme: String) -> String {
        scheme + mask + " (the URL has an '@' that libpq did not read as user:password@; percent-encode '@' and '/' in a password)"
    }

    /// libpq's message about a string it could not parse, without any quoted part of
    /// the input (which may hold a password); quoted option names and "=" stay.
    static func parseFailure(_ message: String) -> String {
        var result = ""
        var rest = Substring(message)
        while let open = rest.firstIndex(of: "\"") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "\"") else {
                result += "\"…\""
                rest = ""
                break
            }
            let quoted = String(rest[afterOpen..<close])
            let harmless = knownKeywords.contains(quoted) || quoted == "="
            result += harmless ? "\"\(quoted)\"" : "\"…\""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// libpq's connection options, without their values: `PQconninfoParse` of an empty
    /// string lists every option libpq knows, as `PQconndefaults` does, without working
    /// out the defaults (which looks the OS user up, reads the service file; issue 18:
    /// the first error message of a run waited for it). The caller frees the list.
    private static func optionList() -> UnsafeMutablePointer<PQconninfoOption>? {
        guard LibPQLoading.failure == nil else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse("", &error)
        if let error { PQfreemem(error) }
        return options
    }

    /// The options libpq marks as secret (`dispchar` `*`: `password`, `sslpassword`,
    /// and any a later libpq adds), each with the environment variable that may carry
    /// it. Masked wherever a connection string is shown.
    package static let secretOptions: [(keyword: String, environment: String?)] = {
        guard let options = optionList() else { return [("password", "PGPASSWORD")] }
        defer { PQconninfoFree(options) }
        var secret: [(String, String?)] = []
        var cursor = options
        while let keyword = cursor.pointee.keyword {
            if let dispchar = cursor.pointee.dispchar, String(cString: dispchar).hasPrefix("*") {
                secret.append((String(cString: keyword), cursor.pointee.envvar.map { String(cString: $0) }))
            }
            cursor += 1
        }
        return secret.isEmpty ? [("password", "PGPASSWORD")] : secret
    }()

    /// Whether an option's value is a secret (see `secretOptions`).
    package static func isSecret(_ keyword: String) -> Bool {
        secretOptions.contains { $0.keyword == keyword }
    }

    /// libpq's connection option names.
    static let knownKeywords: Set<String> = {
        guard let options = optionList() else { return [] }
        defer { PQconninfoFree(options) }
        var names: Set<String> = []
        var cursor = options
        while let keyword = cursor.pointee.keyword {
            names.insert(String(cString: keyword))
            cursor += 1
        }
        return names
    }()

    /// Removes every secret wherever it appears, and shows any connection URL in the
    /// text only as its redacted form.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacingAll(secret, with: mask)
        }
        guard result.contains("://") else { return result }
        return result.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard let scheme = word.range(of: "://"), word.contains("@") else { return String(word) }
            if let settings = try? ConnectionSettings(String(word)) { return settings.redacted }
            return String(word[..<scheme.upperBound]) + mask
        }.joined(separator: " ")
    }

    /// Quotes a conninfo value when it is empty or has spaces, quotes or backslashes.
    static func quoteConninfoValue(_ value: String) -> String {
        if !value.isEmpty && !value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" || $0 == "=" }) {
            return value
        }
        let escaped = value.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        return "'\(escaped)'"
    }

    private static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        }
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? mask
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
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
}
