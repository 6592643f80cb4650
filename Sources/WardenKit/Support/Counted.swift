/// A count and its noun, in the singular for one: `1 relation`, `2 relations`, `0 dangers`
/// (nouns whose plural adds an s: every one the reports count).
package func counted(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
