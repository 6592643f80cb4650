import Foundation
import WardenPostgres

/// The row-level security policies on Supabase Storage's tables (`storage.objects`,
/// `storage.buckets`) and the existing buckets they name. Supabase ships none, so every
/// one is the project's. A run that does not cover schema `storage` says it did not
/// observe them; a draft that does puts its storage rows in a bucket they name.
public struct StoragePolicies: Sendable, Equatable {
    /// One storage table's policies.
    public struct Table: Sendable, Equatable {
        /// `storage.objects` or `storage.buckets`.
        public var name: String
        /// How many policies it has.
        public var policies: Int
        /// The existing buckets its policies name (`bucket_id = 'avatars'`), those of a
        /// policy for anon (or PUBLIC) first, then by id.
        public var buckets: [String]
    }

    /// Tables with policies, `storage.objects` first; empty without any (or without Storage).
    public var tables: [Table]
    /// Buckets `storage.objects`' policies name (`bucket_id = 'message-files'`) that the
    /// database lacks: made in the dashboard, by no migration or config.toml. A draft
    /// makes them in its setup, so their files are probed (otherwise every policy
    /// scoped to one refused every probe, and a read of every user's files was unseen).
    public var missingBuckets: [String] = []
    /// The existing buckets that are public (their files are anyone's to read).
    public var publicBuckets: Set<String> = []

    /// The buckets `storage.objects`' policies name, anon's first, then those missing.
    var objectBuckets: [String] { (tables.first { $0.name == "storage.objects" }?.buckets ?? []) + missingBuckets }

    /// The setup entry making `missingBuckets` (nil: none is missing).
    var missingBucketsSetup: String? {
        guard !missingBuckets.isEmpty else { return nil }
        let rows = missingBuckets.map { "(\(DraftOwnership.literal($0)), \(DraftOwnership.literal($0)))" }.joined(separator: ", ")
        return """
            -- Buckets the storage policies name that the database lacks (made in the dashboard?),
            -- made here so that their files can be probed; no migration or config.toml creates them.
            insert into storage.buckets (id, name) values \(rows) on conflict do nothing
            """
    }

    /// The bucket the draft's storage rows and samples go in: the first of
    /// `objectBuckets` that `ownerRule` (the owner rule drafted for `storage.objects`)
    /// names, else the first (nil: none). An owner rule from one bucket's policies with
    /// rows in another made no row anyone's: the personas' own writes were never seen,
    /// and the drafted plan failed its own run.
    func objectBucket(ownedBy ownerRule: String?) -> String? {
        let buckets = objectBuckets
        guard let ownerRule else { return buckets.first }
        return buckets.first { ownerRule.contains("\(DraftOwnership.literal($0))::text") } ?? buckets.first
    }

    static func read(_ connection: Connection) throws -> StoragePolicies {
        guard try connection.fetchBool(
            "select to_regclass('storage.objects') is not null and to_regclass('storage.buckets') is not null") else {
            return StoragePolicies(tables: [])
        }
        // A policy names a bucket when its expressions hold the bucket's id as a literal
        // (pg_get_expr prints `bucket_id = 'avatars'::text`, `= ANY (ARRAY['a'::text, ...])`).
        let names = """
            strpos(coalesce(pg_get_expr(q.polqual, q.polrelid), '') || ' ' || coalesce(pg_get_expr(q.polwithcheck, q.polrelid), ''),
                   quote_literal(b.id) || '::text') > 0
            """
        let rows = try connection.query("""
            select 'storage.' || c.relname, count(*)::text,
                   array_to_json(array(
                       select b.id from storage.buckets b
                       where exists (select from pg_policy q where q.polrelid = c.oid and \(raw: names))
                       order by not exists (select from pg_policy q where q.polrelid = c.oid and \(raw: names)
                                              and (q.polroles = array[0::oid] or to_regrole('anon') = any(q.polroles))),
                                b.id))::text
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'storage' and c.relname in ('objects', 'buckets')
            group by c.oid, c.relname
            order by c.relname desc
            """).rows
        var policies = StoragePolicies(tables: rows.map { row in
            Table(name: row[0] ?? "", policies: Int(row[1] ?? "") ?? 0, buckets: JSONStringArray.decode(row[2]))
        })
        // The bucket ids storage.objects' policies compare bucket_id with, and which exist.
        let named = try connection.query("""
            select coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')
            from pg_policy p where p.polrelid = 'storage.objects'::regclass
            """).rows.compactMap { $0.first ?? nil }.flatMap { Self.bucketLiterals(in: $0) }
        let existing = Set(try connection.query("select id from storage.buckets").rows.compactMap { $0.first ?? nil })
        var seen: Set<String> = []
        policies.missingBuckets = named.filter { !existing.contains($0) && seen.insert($0).inserted }
        policies.publicBuckets = Set(try connection.query("select id from storage.buckets where public").rows.compactMap { $0.first ?? nil })
        return policies
    }

    /// The bucket ids a policy expression compares `bucket_id` with, as `pg_get_expr`
    /// prints them: `(bucket_id = 'avatars'::text)`, `(bucket_id = ANY (ARRAY['a'::text, 'b'::text]))`.
    static func bucketLiterals(in expression: String) -> [String] {
        let literal = #"'((?:[^']|'')*)'::text"#
        let patterns = [#"bucket_id\)?\s*=\s*"# + literal, #"bucket_id\)?\s*=\s*ANY\s*\(ARRAY\[([^\]]*)\]"#]
        var found: [String] = []
        for (index, pattern) in patterns.enumerated() {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in regex.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)) {
                guard let range = Range(match.range(at: 1), in: expression) else { continue }
                let text = String(expression[range])
                found += index == 0 ? [text.replacingOccurrences(of: "''", with: "'")] : literals(inList: text)
            }
        }
        return found
    }

    private static func literals(inList list: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"'((?:[^']|'')*)'::text"#) else { return [] }
        return regex.matches(in: list, range: NSRange(list.startIndex..., in: list)).compactMap { match in
            Range(match.range(at: 1), in: list).map { String(list[$0]).replacingOccurrences(of: "''", with: "'") }
        }
    }

    /// One line per table for a run whose `schemas` leave out `storage`: what it did not
    /// observe and the command that does; none when `storage` is covered.
    public func unobservedLines(schemas: [String], planFile: String) -> [String] {
        guard !schemas.contains("storage") else { return [] }
        let command = "pgwarden plan draft " + (schemas + ["storage"]).map { "--schema \($0)" }.joined(separator: " ")
            + " --output \(planFile), then pgwarden test"
        return tables.map { table in
            let buckets = table.buckets.isEmpty ? "" : " (\(table.buckets.count == 1 ? "bucket" : "buckets") \(table.buckets.joined(separator: ", ")))"
            return "NOTE \(table.name) has \(table.policies == 1 ? "1 policy" : "\(table.policies) policies")\(buckets) "
                + "this run did not observe: \(command)"
        }
    }
}
