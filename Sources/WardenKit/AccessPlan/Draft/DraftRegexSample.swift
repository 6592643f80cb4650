import Foundation

/// A text that a simple regular expression of a check constraint matches (`sha256 ~
/// '^[0-9a-f]{64}$'`, `phone ~ '^[6-9][0-9]{9}$'`, `code ~* '^[A-Z]{2}-\d{3}$'`), which no
/// fixed candidate of `DraftCheckedText` could meet.
///
/// The pattern is read as PostgreSQL's advanced regular expressions read it, for a small
/// subset: literals, `.`, bracket expressions, `\d \s \w \D \S \W`, `^ $`, groups,
/// alternation and bounded or open quantifiers. Anything else (back-references,
/// lookarounds, `\m \y`, collating elements, a `{` that is no bound) gives nil, never a
/// string the server would refuse. Any string of the pattern's language matches it, since
/// `~` matches anywhere and greediness decides which substring matches, not whether one does.
enum DraftRegexSample {
    /// A string `pattern` matches (PostgreSQL's advanced regular expressions, `~`; `caseInsensitive` for `~*`),
    /// and where one position of it may hold any digit, the text before and after that position
    /// (so `head + "1" + tail` and `head + "2" + tail` match too); nil for a pattern outside the subset.
    static func sample(matching pattern: String, caseInsensitive: Bool = false) -> (single: String, head: String, tail: String)? {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let branches = parser.pattern() else { return nil }
        let generator = Generator(caseInsensitive: caseInsensitive)
        guard let plain = generator.top(branches, seekingDigit: false) else { return nil }
        let single = text(plain)
        // With the fewest repetitions no position may take a digit where an optional part
        // (or a later alternative) would: then the numbered texts come from that longer one.
        let numbered = digitSlot(in: plain) != nil ? plain : generator.top(branches, seekingDigit: true) ?? plain
        guard let slot = digitSlot(in: numbered) else { return (single, single, "") }
        return (single, text(numbered[..<slot]), text(numbered[(slot + 1)...]))
    }

    /// The last position whose class admits every digit 1-9.
    private static func digitSlot(in emitted: [Emitted]) -> Int? {
        emitted.lastIndex { $0.admitsDigits }
    }

    private static func text(_ emitted: some Sequence<Emitted>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: emitted.map(\.scalar))
        return String(scalars)
    }
}

// MARK: - The pattern, read

extension DraftRegexSample {
    /// One alternative: pieces in a row.
    typealias Branch = [Piece]

    /// An atom with its repetition bounds (`max` nil: unbounded).
    struct Piece {
        var atom: Atom
        var min = 1
        var max: Int? = 1
    }

    enum Atom {
        case start, end
        case literal(Unicode.Scalar)
        case set(CharSet)
        case group([Branch])
    }

    /// A POSIX class, as PostgreSQL reads it for ASCII characters.
    enum Posix: String {
        case alpha, digit, alnum, upper, lower, space, xdigit, punct, blank

        func contains(_ c: Unicode.Scalar) -> Bool {
            guard c.isASCII else { return false }
            let v = c.value
            let isUpper = (65...90).contains(v), isLower = (97...122).contains(v), isDigit = (48...57).contains(v)
            switch self {
            case .alpha: return isUpper || isLower
            case .digit: return isDigit
            case .alnum: return isUpper || isLower || isDigit
            case .upper: return isUpper
            case .lower: return isLower
            case .space: return v == 32 || (9...13).contains(v)
            case .xdigit: return isDigit || (65...70).contains(v) || (97...102).contains(v)
            case .punct: return (33...126).contains(v) && !(isUpper || isLower || isDigit)
            case .blank: return v == 32 || v == 9
            }
        }
    }

    /// One member of a bracket expression.
    indirect enum Item: Sendable {
        case scalar(Unicode.Scalar)
        case range(Unicode.Scalar, Unicode.Scalar)
        case posix(Posix)
        case not([Item])

        func contains(_ c: Unicode.Scalar) -> Bool {
            switch self {
            case .scalar(let s): return s == c
            case .range(let lo, let hi): return lo.value <= c.value && c.value <= hi.value
            case .posix(let p): return p.contains(c)
            case .not(let items): return !items.contains { $0.contains(c) }
            }
        }

        /// The characters it names itself, worth trying when the ASCII ones fail.
        var named: [Unicode.Scalar] {
            switch self {
            case .scalar(let s): return [s]
            case .range(let lo, _): return [lo]
            case .posix, .not: return []
            }
        }
    }

    /// A bracket expression, a class escape or `.`.
    struct CharSet: Sendable {
        var negated = false
        var items: [Item]

        static let any = CharSet(negated: true, items: [])
        static let digit: [Item] = [.posix(.digit)]
        static let space: [Item] = [.posix(.space)]
        static let word: [Item] = [.posix(.alnum), .scalar("_")]
    }

    /// A recursive-descent reader of the subset; nil wherever the text leaves it.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var at = 0

        /// Largest bound PostgreSQL accepts (`RE_DUPMAX`).
        static let maxBound = 255

        init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var next: Unicode.Scalar? { at < scalars.count ? scalars[at] : nil }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            at + offset < scalars.count ? scalars[at + offset] : nil
        }

        mutating func take(_ text: String) -> Bool {
            let wanted = Array(text.unicodeScalars)
            guard at + wanted.count <= scalars.count, Array(scalars[at..<(at + wanted.count)]) == wanted else { return false }
            at += wanted.count
            return true
        }

        /// The whole pattern: an optional leading `(?i)`, then alternatives to the end.
        mutating func pattern() -> [Branch]? {
            guard !take("***") else { return nil }
            _ = take("(?i)")
            guard let branches = alternatives(), next == nil else { return nil }
            return branches
        }

        mutating func alternatives() -> [Branch]? {
            var branches: [Branch] = []
            repeat {
                guard let branch = branch() else { return nil }
                branches.append(branch)
            } while take("|")
            return branches
        }

        mutating func branch() -> Branch? {
            var pieces: Branch = []
            while let c = next, c != "|", c != ")" {
                guard let atom = atom(), let piece = quantified(atom) else { return nil }
                pieces.append(piece)
            }
            return pieces
        }

        mutating func atom() -> Atom? {
            guard let c = next else { return nil }
            at += 1
            switch c {
            case "^": return .start
            case "$": return .end
            case ".": return .set(.any)
            case "[": return bracket().map(Atom.set)
            case "\\": return escape()
            case "(":
                // `(?:` alone of the `(?` forms: lookarounds and options are outside the subset.
                guard !take("?") || take(":"), let inner = alternatives(), take(")") else { return nil }
                return .group(inner)
            case "*", "+", "?", "{": return nil
            default: return .literal(c)
            }
        }

        /// An atom's quantifier, greedy or lazy; nil for a quantified anchor or a doubled quantifier.
        mutating func quantified(_ atom: Atom) -> Piece? {
            var piece = Piece(atom: atom)
            switch next {
            case "*": at += 1; (piece.min, piece.max) = (0, nil)
            case "+": at += 1; (piece.min, piece.max) = (1, nil)
            case "?": at += 1; (piece.min, piece.max) = (0, 1)
            case "{":
                at += 1
                guard let bounds = bounds() else { return nil }
                (piece.min, piece.max) = bounds
            default: return piece
            }
            if case .start = atom { return nil }
            if case .end = atom { return nil }
            _ = take("?")
            if let c = next, "*+?{".unicodeScalars.contains(c) { return nil }
            return piece
        }

        /// `n}`, `n,}` or `n,m}` after a `{`.
        mutating func bounds() -> (Int, Int?)? {
            guard let low = number() else { return nil }
            guard take(",") else { return take("}") ? (low, low) : nil }
            if take("}") { return (low, nil) }
            guard let high = number(), high >= low, take("}") else { return nil }
            return (low, high)
        }

        mutating func number() -> Int? {
            var digits = ""
            while let c = next, Posix.digit.contains(c), digits.count < 4 {
                digits.unicodeScalars.append(c)
                at += 1
            }
            guard let value = Int(digits), value <= Self.maxBound else { return nil }
            return value
        }

        /// An escape outside brackets.
        mutating func escape() -> Atom? {
            guard let c = next else { return nil }
            at += 1
            if let items = classEscape(c) {
                return .set(CharSet(negated: c.properties.isUppercase, items: items))
            }
            return escapedScalar(c).map(Atom.literal)
        }

        /// `\d \s \w` (and the upper-case complements, negated by the caller).
        func classEscape(_ c: Unicode.Scalar) -> [Item]? {
            switch c {
            case "d", "D": return CharSet.digit
            case "s", "S": return CharSet.space
            case "w", "W": return CharSet.word
            default: return nil
            }
        }

        /// The character an escape stands for: itself when not alphanumeric, a few control
        /// characters; nil for the rest (back-references, `\m \M \y \Y \A \Z \b`, octal, hex).
        func escapedScalar(_ c: Unicode.Scalar) -> Unicode.Scalar? {
            switch c {
            case "t": return "\t"
            case "n": return "\n"
            case "r": return "\r"
            case "f": return "\u{0C}"
            case "v": return "\u{0B}"
            default: return c.isASCII && !Posix.alnum.contains(c) ? c : nil
            }
        }

        /// A bracket expression after its `[`.
        mutating func bracket() -> CharSet? {
            let negated = take("^")
            var items: [Item] = []
            // A `]` first in the list is a member.
            var first = true
            while first || !take("]") {
                guard let more = bracketItems(first: first) else { return nil }
                items += more
                first = false
            }
            return CharSet(negated: negated, items: items)
        }

        /// One member: a POSIX class, a class escape, a character or a range.
        mutating func bracketItems(first: Bool) -> [Item]? {
            if take("[:") {
                var name = ""
                while let c = next, c != ":" {
                    name.unicodeScalars.append(c)
                    at += 1
                }
                guard take(":]"), let posix = Posix(rawValue: name) else { return nil }
                return [.posix(posix)]
            }
            if next == "[", peek(1) == "." || peek(1) == "=" { return nil }
            if next == "\\", let c = peek(1), let items = classEscape(c) {
                at += 2
                return c.properties.isUppercase ? [.not(items)] : items
            }
            let escaped = next == "\\"
            guard let low = bracketScalar() else { return nil }
            // A bare `-` inside, not first and not closing the list, is a range's dash or an error.
            if low == "-", !escaped, !first, next != "]" { return nil }
            guard next == "-", peek(1) != "]", peek(1) != nil else { return [.scalar(low)] }
            at += 1
            if next == "[" { return nil }
            guard let high = bracketScalar(), low.value <= high.value else { return nil }
            return [.range(low, high)]
        }

        /// A character inside brackets, escaped or not.
        mutating func bracketScalar() -> Unicode.Scalar? {
            guard let c = next else { return nil }
            at += 1
            guard c == "\\" else { return c }
            guard let escaped = next else { return nil }
            at += 1
            return escapedScalar(escaped)
        }
    }
}

// MARK: - The text, made

extension DraftRegexSample {
    /// One generated character, or an anchor to place.
    struct Emitted {
        var scalar: Unicode.Scalar
        var admitsDigits = false
        var anchor: Atom? = nil

        static func marker(_ anchor: Atom) -> Emitted { Emitted(scalar: " ", anchor: anchor) }
    }

    struct Generator {
        let caseInsensitive: Bool

        /// No draft text is longer.
        static let maxLength = 10_000

        /// Lower-case letters first, then digits, upper case, and the rest of printable ASCII.
        static let preferred: [Unicode.Scalar] = {
            let ranges: [ClosedRange<UInt32>] = [97...122, 48...57, 65...90, 32...47, 58...64, 91...96, 123...126]
            return ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        }()

        static let digits: [Unicode.Scalar] = Array("123456789".unicodeScalars)

        /// The top level: the first alternative that generates with its anchors in place.
        func top(_ branches: [Branch], seekingDigit: Bool) -> [Emitted]? {
            var fallback: [Emitted]?
            for branch in branches {
                guard let emitted = self.branch(branch, seekingDigit: seekingDigit), anchorsHold(emitted) else { continue }
                if !seekingDigit || emitted.contains(where: \.admitsDigits) {
                    return emitted.filter { $0.anchor == nil }
                }
                fallback = fallback ?? emitted.filter { $0.anchor == nil }
            }
            return fallback
        }

        /// `^` before every character and `$` after every one.
        func anchorsHold(_ emitted: [Emitted]) -> Bool {
            emitted.indices.allSatisfy { index in
                switch emitted[index].anchor {
                case .start?: return !emitted[..<index].contains { $0.anchor == nil }
                case .end?: return !emitted[(index + 1)...].contains { $0.anchor == nil }
                default: return true
                }
            }
        }

        func alternatives(_ branches: [Branch], seekingDigit: Bool) -> [Emitted]? {
            var fallback: [Emitted]?
            for branch in branches {
                guard let emitted = self.branch(branch, seekingDigit: seekingDigit) else { continue }
                if !seekingDigit || emitted.contains(where: \.admitsDigits) { return emitted }
                fallback = fallback ?? emitted
            }
            return fallback
        }

        func branch(_ pieces: Branch, seekingDigit: Bool) -> [Emitted]? {
            var emitted: [Emitted] = []
            for piece in pieces {
                guard let more = self.piece(piece, seekingDigit: seekingDigit) else { return nil }
                emitted += more
                guard emitted.count <= Self.maxLength else { return nil }
            }
            return emitted
        }

        /// The fewest repetitions, at least one for `+`; one of an optional part when
        /// looking for a digit's place and that part has one.
        func piece(_ piece: Piece, seekingDigit: Bool) -> [Emitted]? {
            guard let once = atom(piece.atom, seekingDigit: seekingDigit) else { return piece.min == 0 ? [] : nil }
            var count = piece.min
            if count == 0, seekingDigit, piece.max != 0, once.contains(where: \.admitsDigits) { count = 1 }
            guard once.count * count <= Self.maxLength else { return nil }
            return Array(repeating: once, count: count).flatMap { $0 }
        }

        func atom(_ atom: Atom, seekingDigit: Bool) -> [Emitted]? {
            switch atom {
            case .start, .end: return [.marker(atom)]
            case .literal(let c): return [Emitted(scalar: c)]
            case .group(let branches): return alternatives(branches, seekingDigit: seekingDigit)
            case .set(let set):
                guard let c = pick(set) else { return nil }
                return [Emitted(scalar: c, admitsDigits: Self.digits.allSatisfy { matches(set, $0) })]
            }
        }

        /// Whether the set matches `c` as the server would (`~*` folds case before a `^` negates).
        func matches(_ set: CharSet, _ c: Unicode.Scalar, folding: Bool? = nil) -> Bool {
            let variants = (folding ?? caseInsensitive) ? caseVariants(c) : [c]
            let listed = variants.contains { v in set.items.contains { $0.contains(v) } }
            return listed != set.negated
        }

        func caseVariants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
            guard c.isASCII, Posix.alpha.contains(c), let other = Unicode.Scalar(c.value ^ 0x20) else { return [c] }
            return [c, other]
        }

        /// A character the set matches: the first preferred one that matches with or without
        /// folding, then any that matches; a named non-ASCII character only from a plain list.
        func pick(_ set: CharSet) -> Unicode.Scalar? {
            let named = set.negated ? [] : set.items.flatMap(\.named).filter { !$0.isASCII }
            let candidates = Self.preferred + named
            return candidates.first { matches(set, $0) && matches(set, $0, folding: false) }
                ?? candidates.first { matches(set, $0) }
        }
    }
}
