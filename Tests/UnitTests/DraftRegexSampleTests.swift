import Foundation
import Testing
@testable import WardenKit

/// A text that a simple regular expression of a check constraint matches, for the columns the
/// fixed candidates of `DraftCheckedText` all broke (`sha256 ~ '^[0-9a-f]{64}$'`). Every expected
/// text below, and `head || 1 || tail`, `head || 2 || tail` where a position takes a digit, was
/// matched by PostgreSQL 15 itself (`~`, or `~*` for the `ci` cases).
@Suite struct DraftRegexSampleTests {
    /// `single`, `head`, `tail` as one array.
    private func sample(_ pattern: String, ci: Bool = false) -> [String]? {
        DraftRegexSample.sample(matching: pattern, caseInsensitive: ci).map { [$0.single, $0.head, $0.tail] }
    }

    /// The shapes the draft's candidates all broke: a hash, a mobile number, a session key, a `~*` code.
    @Test func theChecksOfTheBriefGiveMatchingTexts() {
        #expect(sample(#"^[0-9a-f]{64}$"#) == ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", ""])
        #expect(sample(#"^[6-9][0-9]{9}$"#) == ["6000000000", "600000000", ""])
        #expect(sample(#"^Hearthstone_[0-9]{4}(_[0-9]{2}){5}$"#) == ["Hearthstone_0000_00_00_00_00_00", "Hearthstone_0000_00_00_00_00_0", ""])
        #expect(sample(#"^[A-Z]{2}-\d{3}$"#, ci: true) == ["AA-000", "AA-00", ""])
    }

    /// Slugs, e-mails, colours, uuids, times, phone numbers, postcodes, dates and versions.
    @Test func commonShapesGiveMatchingTexts() {
        #expect(sample(#"^[a-z0-9]+(?:-[a-z0-9]+)*$"#) == ["a", "", ""])
        #expect(sample(#"^[^@\s]+@[^@\s]+\.[^@\s]+$"#) == ["a@a.a", "a@a.", ""])
        #expect(sample(#"^#[0-9a-fA-F]{6}$"#) == ["#aaaaaa", "#aaaaa", ""])
        #expect(sample(#"^[A-Z]{3}$"#) == ["AAA", "AAA", ""])
        #expect(sample(#"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#) == ["aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa", ""])
        #expect(sample(#"^([01][0-9]|2[0-3]):[0-5][0-9]$"#) == ["00:00", "00:0", ""])
        #expect(sample(#"^\+?[1-9]\d{1,14}$"#) == ["10", "1", ""])
        #expect(sample(#"^\d{4}-\d{4}$"#) == ["0000-0000", "0000-000", ""])
        #expect(sample(#"^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$"#) == ["A00AA", "A0", "AA"])
        #expect(sample(#"^\d{5}(-\d{4})?$"#) == ["00000", "0000", ""])
        #expect(sample(#"^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$"#) == ["a0a0a0", "a0a0a", ""])
        #expect(sample(#"^[1-9][0-9]{5}$"#) == ["100000", "10000", ""])
        #expect(sample(#"^[1-9][0-9]{3}\s?[A-Z]{2}$"#, ci: true) == ["1000AA", "100", "AA"])
        #expect(sample(#"^[a-z_][a-z0-9_]*$"#) == ["a", "a", ""])
        #expect(sample(#"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$"#) == ["a@a.aa", "a@", ".aa"])
        #expect(sample(#"^https?://.+$"#) == ["http://a", "http://", ""])
    }

    /// POSIX classes, class escapes inside and outside brackets, and negated lists: a lower-case
    /// letter where the class allows one, and a member that matches under `~*` as well.
    @Test func classesAndEscapesPickAMember() {
        #expect(sample(#"^[[:alpha:]]+$"#) == ["a", "a", ""])
        #expect(sample(#"^[[:digit:]]{3}$"#) == ["000", "00", ""])
        #expect(sample(#"^[[:alnum:]_-]{3,30}$"#) == ["aaa", "aa", ""])
        #expect(sample(#"^[[:upper:]][[:lower:]]+$"#) == ["Aa", "Aa", ""])
        #expect(sample(#"^[[:xdigit:]]{8}$"#) == ["aaaaaaaa", "aaaaaaa", ""])
        #expect(sample(#"^[[:space:]]$"#) == [" ", " ", ""])
        #expect(sample(#"^[^[:alpha:]]{2}$"#) == ["00", "0", ""])
        #expect(sample(#"^\w+$"#) == ["a", "", ""])
        #expect(sample(#"^\S+$"#) == ["a", "", ""])
        #expect(sample(#"^\D+$"#) == ["a", "a", ""])
        #expect(sample(#"^\W$"#) == [" ", " ", ""])
        #expect(sample(#"^[\D]$"#) == ["a", "a", ""])
        #expect(sample(#"^[^\d\s]$"#) == ["a", "a", ""])
        #expect(sample(#"^[\w.-]+$"#) == ["a", "", ""])
        #expect(sample(#"^[^a-z]+$"#, ci: true) == ["0", "", ""])
        #expect(sample(#"^[A-Z]+$"#, ci: true) == ["A", "A", ""])
        #expect(sample(#"^[[:upper:]]{2}$"#, ci: true) == ["AA", "AA", ""])
    }

    /// Alternatives (the first that generates), the fewest repetitions, unanchored patterns; an
    /// optional part is taken once when only it gives a digit's position (`a-v` + n).
    @Test func groupsAlternativesAndQuantifiers() {
        #expect(sample(#"^\d{4}-\d{2}-\d{2}$"#) == ["0000-00-00", "0000-00-0", ""])
        #expect(sample(#"^(draft|published|archived)$"#) == ["draft", "draft", ""])
        #expect(sample(#"^v\d+\.\d+\.\d+$"#) == ["v0.0.0", "v0.0.", ""])
        #expect(sample(#"^[a-z]{2}(-[A-Z]{2})?$"#) == ["aa", "aa", ""])
        #expect(sample(#"^\$\d+(\.\d{2})?$"#) == ["$0", "$", ""])
        #expect(sample(#"^.{8,}$"#) == ["aaaaaaaa", "aaaaaaa", ""])
        #expect(sample(#"(?i)^[a-z]+$"#) == ["a", "a", ""])
        #expect(sample(#"abc"#) == ["abc", "abc", ""])
        #expect(sample(#"[0-9]{3}"#) == ["000", "00", ""])
        #expect(sample(#"^a|^b$"#) == ["a", "a", ""])
        #expect(sample(#"^(?:\+91)?[6-9]\d{9}$"#) == ["6000000000", "600000000", ""])
        #expect(sample(#"^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$"#) == ["AA000", "AA00", ""])
        #expect(sample(#"^[a-z]+(_[a-z]+)*$"#) == ["a", "a", ""])
        #expect(sample(#"^[a-z]+([0-9]+)?$"#) == ["a", "a", ""])
        #expect(sample(#"^[a-z]+(-v[0-9]+)*$"#) == ["a", "a-v", ""])
        #expect(sample(#"^\d+$"#) == ["0", "", ""])
        #expect(sample(#"^[0-9]*$"#) == ["", "", ""])
        #expect(sample(#"^ISBN[- ]?\d{9}[\dX]$"#) == ["ISBN0000000000", "ISBN000000000", ""])
    }

    /// Bracket corner cases (`]` first, `-` first or last, escaped members), non-ASCII text,
    /// control escapes and a lone `}`.
    @Test func escapedAndUnusualCharacters() {
        #expect(sample(#"^[]a]+$"#) == ["a", "a", ""])
        #expect(sample(#"^[a\-z]$"#) == ["a", "a", ""])
        #expect(sample(#"^[\\/]$"#) == ["/", "/", ""])
        #expect(sample(#"^a\.b\_c\/d\\e$"#) == ["a.b_c/d\\e", "a.b_c/d\\e", ""])
        #expect(sample(#"^[^-]+$"#) == ["a", "", ""])
        #expect(sample(#"^[a-]$"#) == ["a", "a", ""])
        #expect(sample(#"^\s*\S+\s*$"#) == ["a", "", ""])
        #expect(sample(#"^([A-Z][a-z]+ ?)+$"#) == ["Aa", "Aa", ""])
        #expect(sample(#"^x*?y+?z??$"#) == ["y", "y", ""])
        #expect(sample(#"^a{2,}?b{1,3}?$"#) == ["aab", "aab", ""])
        #expect(sample(#"^[а-я]+$"#) == ["а", "а", ""])
        #expect(sample(#"^café$"#) == ["café", "café", ""])
        #expect(sample(#"^\d{3}[ .-]?\d{3}[ .-]?\d{4}$"#) == ["0000000000", "000000000", ""])
        #expect(sample(#"^(a|b)(c|d){2,3}$"#) == ["acc", "acc", ""])
        #expect(sample(#"^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$"#) == ["00:00", "00:0", ""])
        #expect(sample(#"^a{0}b$"#) == ["b", "b", ""])
        #expect(sample(#"^(draft|\d+)$"#) == ["draft", "", ""])
        #expect(sample(#"^\t?[a-z]+$"#) == ["a", "a", ""])
        #expect(sample(#"^[^.]+\.(png|jpe?g|gif)$"#) == ["a.png", "", ".png"])
        #expect(sample(#"^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$"#) == ["250.250.250.250", "200.200.200.20", ""])
        #expect(sample(#"^[A-Z][0-9]{2}(\.[0-9]{1,2})?$"#) == ["A00", "A0", ""])
        #expect(sample(#"^()a(|b)$"#) == ["a", "a", ""])
        #expect(sample(#"^a}]$"#) == ["a}]", "a}]", ""])
    }

    /// Where no position takes every digit, `head` is the whole text and `tail` empty: the
    /// numbered variants then do not match, and the setup says so as before.
    @Test func noDigitPositionGivesTheTextAsHead() {
        #expect(DraftRegexSample.sample(matching: #"^[A-Z]{3}$"#).map { $0.head + "1" + $0.tail } == "AAA1")
    }

    /// Back-references, lookarounds, word-boundary and other escapes, collating elements,
    /// bounds out of range, stray quantifiers, unbalanced brackets, misplaced anchors, a
    /// director prefix, options other than a leading `(?i)`, an empty class, a text too long.
    @Test func patternsOutsideTheSubsetGiveNil() {
        #expect(sample(#"^(a)\1$"#) == nil)
        #expect(sample(#"^(?=a)a$"#) == nil)
        #expect(sample(#"^(?!a)b$"#) == nil)
        #expect(sample(#"^(?<=a)b$"#) == nil)
        #expect(sample(#"\mword\M"#) == nil)
        #expect(sample(#"\yword\y"#) == nil)
        #expect(sample(#"^\bfoo$"#) == nil)
        #expect(sample(#"^\Aabc\Z$"#) == nil)
        #expect(sample(#"^\x41$"#) == nil)
        #expect(sample(#"^a{2,1}$"#) == nil)
        #expect(sample(#"^a{1000}$"#) == nil)
        #expect(sample(#"^a{$"#) == nil)
        #expect(sample(#"^[[.a.]]$"#) == nil)
        #expect(sample(#"^[[=a=]]$"#) == nil)
        #expect(sample(#"^[[:word:]]$"#) == nil)
        #expect(sample(#"^[a-c-e]$"#) == nil)
        #expect(sample(#"^[z-a]$"#) == nil)
        #expect(sample(#"^[abc$"#) == nil)
        #expect(sample(#"a**"#) == nil)
        #expect(sample(#"*a"#) == nil)
        #expect(sample(#"^+a$"#) == nil)
        #expect(sample(#"^(a$"#) == nil)
        #expect(sample(#"a)"#) == nil)
        #expect(sample(#"***=abc"#) == nil)
        #expect(sample(#"(?x)^ a $"#) == nil)
        #expect(sample(#"^a(?i)b$"#) == nil)
        #expect(sample(#"^a^b$"#) == nil)
        #expect(sample(#"^a$b"#) == nil)
        #expect(sample(#"^[^\s\S]$"#) == nil)
        #expect(sample(#"^(a{200}){200}$"#) == nil)
        #expect(sample(#"^a\"#) == nil)
    }
}
