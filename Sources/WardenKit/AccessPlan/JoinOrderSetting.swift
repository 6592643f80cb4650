/// The run plans joins in the order they are written (`join_collapse_limit` and
/// `from_collapse_limit` 1, set `LOCAL` in the run's transaction; issue 18).
///
/// Every relation is planned again as each persona (row-level security is applied
/// when a statement is planned, for the role that runs it), and for a view of many
/// joins most of that planning is the search over join orders: measured on Electric
/// Ride, about a tenth of the server's time for the whole run. The order a plan joins
/// in changes how rows are found, never which rows: a probe reads its relation whole,
/// so what each cell proves is the same; the planner still picks each join's method
/// and which side it builds.
enum JoinOrderSetting {
    static let settings: [(name: String, value: String)] = [
        ("join_collapse_limit", "1"), ("from_collapse_limit", "1"),
    ]
}
