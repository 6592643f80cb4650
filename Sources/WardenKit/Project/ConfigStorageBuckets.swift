import WardenPostgres

/// The buckets a Supabase CLI project declares in `config.toml`
/// (`[storage.buckets.<name>]`), made as `supabase start` and `supabase db reset` make
/// them after the seeds: through the Storage API there (the CLI's `seed buckets` step:
/// a bucket with that name has its `public`, `file_size_limit` and `allowed_mime_types`
/// updated, else it is created with that name as its id); here by the same rows in
/// `storage.buckets`, as the project's role (postgres may insert buckets, as Supabase's
/// storage guide shows). A storage policy naming such a bucket then has files to guard.
/// `objects_path` uploads are not made: the twin has no storage server to hold files.
public enum ConfigStorageBuckets {
    /// Creates or updates each bucket, in one transaction; returns one line per bucket
    /// (`created bucket avatars (public)`), and one for each `objects_path` not uploaded.
    @discardableResult
    public static func apply(_ buckets: [SupabaseConfig.StorageBucket], on connection: Connection) throws -> [String] {
        guard !buckets.isEmpty else { return [] }
        let statements: [SQL] = buckets.map { bucket in
            let (isPublic, limit) = (bucket.isPublic, bucket.fileSizeLimit)
            let types = bucket.allowedMimeTypes.map(PostgresArray.literal)
            return """
                with updated as (
                  update storage.buckets
                  set public = \(isPublic)::boolean, file_size_limit = \(limit)::bigint,
                      allowed_mime_types = \(types)::text[], updated_at = now()
                  where name = \(bucket.name)
                  returning 1)
                insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
                select \(bucket.name), \(bucket.name), \(isPublic)::boolean, \(limit)::bigint, \(types)::text[]
                where not exists (select 1 from updated)
                returning 1
                """
        }
        let results = try connection.transaction { try connection.execute(statements) }
        var lines: [String] = []
        for (bucket, result) in zip(buckets, results) {
            let kind = bucket.isPublic ? "public" : "private"
            lines.append("\(result.rows.isEmpty ? "updated" : "created") bucket \(bucket.name) (\(kind))")
            if let path = bucket.objectsPath {
                lines.append("bucket \(bucket.name): objects_path \(path) not uploaded (the twin has no storage server)")
            }
        }
        return lines
    }
}
