import Foundation

extension DraftCatalog {
    /// `expression` (as pg_get_expr prints a policy's) with each read of the token's
    /// `sub` claim written as the user's id in text, `(auth.uid())::text`, which the
    /// draft's owner rules know: `auth.jwt() ->> 'sub'`, `(select auth.jwt()) ->> 'sub'`
    /// and `current_setting('request.jwt.claims', true)::json(b) ->> 'sub'`, the shapes
    /// of projects signed in through a third-party provider, whose user ids are text
    /// (Supabase's Clerk guide: `user_id text default auth.jwt() ->> 'sub'`). auth.uid()
    /// is that claim as a uuid, and every persona's token has its user's id there, so
    /// the rewritten rule holds for the same rows. (Unread, every table of a learning
    /// app owned this way had no owner: all its cells were `none`, and a drafted plan
    /// proved nothing about own or other users' rows; round thirty-six.)
    static func subjectClaimsAsUserID(_ expression: String) -> String {
        guard expression.contains("'sub'::text") else { return expression }
        var text = expression
        for (pattern, replacement) in subjectClaimReads {
            text = pattern.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
        }
        return text
    }

    /// The claim's reads, most enclosing first: a scalar subquery around the read is
    /// rewritten whole, as the `( SELECT auth.uid() AS uid)` the owner patterns know.
    private static let subjectClaimReads: [(NSRegularExpression, String)] = {
        let claims = #"(?:auth\.jwt\(\)|\(\s*SELECT\s+auth\.jwt\(\)\s+AS\s+jwt\s*\)|\(current_setting\('request\.jwt\.claims'::text,\s*true\)\)::jsonb?)"#
        let read = claims + #"\s*->>\s*'sub'::text"#
        return [
            (#"\(\s*SELECT\s+\(\s*"# + read + #"\s*\)(?:\s+AS\s+"?\?column\?"?)?\s*\)"#, "(( SELECT auth.uid() AS uid))::text"),
            (#"\(\s*"# + read + #"\s*\)"#, "(auth.uid())::text"),
        ].compactMap { pattern, replacement in
            (try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])).map { ($0, replacement) }
        }
    }()
}
