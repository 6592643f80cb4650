import Yams

/// Bounds on what a plan file may cost to read, so hostile YAML (an alias
/// "billion laughs", deep flow nesting, a huge file) is refused within a second and a
/// few MB instead of growing until the machine gives out.
///
/// Composing is cheap even for aliases (Yams shares an anchored node), but every later
/// walk expands them; counting nodes with a budget stops at the first node too many.
struct YAMLBudget {
    /// The largest plan file read (Electric Ride's is about 12 KB).
    static let maxBytes = 1 << 20
    /// The most flow collections (`[`, `{`) open at once.
    static let maxFlowDepth = 64
    /// The most nodes the plan may hold with every alias expanded.
    static let maxNodes = 100_000

    let file: String

    /// Checks the raw text before the YAML parser sees it.
    func checkText(_ text: String) throws {
        if text.utf8.count > Self.maxBytes {
            throw AccessPlanError(
                file: file, line: nil,
                message: "the plan file is \(text.utf8.count) bytes; plans over \(Self.maxBytes) bytes are refused")
        }
        var depth = 0
        var line = 1
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > Self.maxFlowDepth {
                    throw AccessPlanError(
                        file: file, line: line,
                        message: "more than \(Self.maxFlowDepth) nested [ or { here; the plan is refused")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
    }

    /// Counts the composed tree's nodes, aliases expanded, stopping past the budget.
    func checkTree(_ root: Node) throws {
        var remaining = Self.maxNodes
        var stack = [root]
        while let node = stack.popLast() {
            remaining -= 1
            if remaining < 0 {
                throw AccessPlanError(
                    file: file, line: node.mark.map(\.line),
                    message: "the plan expands to more than \(Self.maxNodes) YAML nodes (aliases counted as copies); it is refused")
            }
            switch node {
            case .mapping(let mapping):
                for pair in mapping {
                    stack.append(pair.key)
                    stack.append(pair.value)
                }
            case .sequence(let sequence): stack.append(contentsOf: sequence)
            case .scalar, .alias: break
            }
        }
    }
}
