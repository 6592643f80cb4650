/// Consecutive server WARNINGs of one shape, reported once with a count: a dump's
/// grants on an extension's functions warn `no privileges were granted for "..."`
/// once per function, hundreds of times, and would bury the run's own output.
///
/// The shape is the message with each double-quoted name set aside. The first warning
/// of a shape is reported whole; the ones after it are counted and reported in one line
/// when a warning of another shape or place comes, or when the run ends (`flush`).
struct ServerWarningGroup {
    private var shape: String?
    private var place = ""
    private var message = ""
    private var repeats = 0

    /// The lines to report now for a WARNING `message` of the file at `place`.
    mutating func add(_ message: String, place: String) -> [String] {
        let shape = Self.shape(of: message)
        if shape == self.shape && place == self.place {
            repeats += 1
            self.message = message
            return []
        }
        let earlier = flush()
        self.shape = shape
        self.place = place
        self.message = message
        return earlier + ["\(place)server WARNING: \(message)"]
    }

    /// The count of the warnings held back, if any (the last one as an example).
    mutating func flush() -> [String] {
        defer { repeats = 0; shape = nil }
        guard repeats > 0 else { return [] }
        return ["\(place)server WARNING, \(repeats) more like it (the last: \(message))"]
    }

    /// The message with every double-quoted part replaced by `"…"`.
    static func shape(of message: String) -> String {
        var result = ""
        var quoted = false
        for character in message {
            if character == "\"" {
                if !quoted { result += "\"…\"" }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        return result
    }
}
