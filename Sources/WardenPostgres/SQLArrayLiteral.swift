/// PostgreSQL's text form of a one-dimensional array (`{"a","b \"c\""}`), for binding
/// a list as one parameter.
enum SQLArrayLiteral {
    static func encode(_ values: [String]) -> String {
        let elements = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }
}
