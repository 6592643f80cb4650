extension DraftWriteCheck {
    /// Checks of the buckets `storage.objects`' policies name besides the one the draft's
    /// rows and samples go in (`StoragePolicies.objectBucket`): a bucket of per-user
    /// folders beside `for all using (bucket_id = 'git-state' and auth.role() =
    /// 'authenticated')` had every cell from the first bucket, `own`, while any user read
    /// and overwrote every file of the second. For each other bucket: the first signed-in
    /// persona changing a file of the second's there, and, where the bucket is not public
    /// (a public bucket's files are anyone's to read), reading it. The second persona's
    /// file there is made by the check's own `before` SQL (`benFile`: the draft's storage
    /// setup row for that persona, made for `chosen`), so the matrix, which speaks of the
    /// bucket the owner rule names, is as it was; each check is kept as it came out.
    static func otherBuckets(_ storage: StoragePolicies, chosen: String?, personas: [Persona], benFile: String?,
                             ownership: DraftOwnership) -> [DraftWriteCheck] {
        guard let (writer, _, other, otherEmail) = writerAndOther(personas), let chosen, let benFile,
              benFile.contains(DraftOwnership.literal(chosen)) else { return [] }
        return storage.objectBuckets.filter { $0 != chosen }.flatMap { bucket -> [DraftWriteCheck] in
            let literal = DraftOwnership.literal(bucket)
            let file = benFile.replacingOccurrences(of: DraftOwnership.literal(chosen), with: literal)
            let target = """
                select o.id::text from storage.objects o join auth.users u on o.name = \(ownership.storageObjectName(user: "u.id::text"))
                  where o.bucket_id = \(literal) and u.email = \(DraftOwnership.literal(otherEmail)) limit 1
                """
            let row = "id = current_setting('\(setting)')::uuid"
            // The check `verb`s ben's file there as ava (`sql`), the file made first.
            func onBensFile(_ verb: String, sql: String, danger: String, refusals: Set<String>) -> DraftWriteCheck {
                var check = before(expectingOneRow(
                    "\(writer.name) \(verb) a file of \(other.name)'s in bucket \(bucket)", writer: writer, sql: sql), target: target)
                check.before = file + ";\n" + (check.before ?? "")
                return DraftWriteCheck(table: "storage.objects", check: check, danger: danger, refusals: refusals, noRowRefuses: true)
            }
            let change = onBensFile(
                "changes", sql: "update storage.objects set name = name where \(row)",
                danger: "a signed-in user may change other users' files in bucket \(bucket) (an update of another user's file went through)",
                refusals: ["42501", "P0001"])
            // A delete too: a bucket whose delete policy names only the bucket (`for delete
            // to authenticated using (bucket_id = 'photos')`, meant as "owners delete their
            // uploads") let any user remove any file, while the update was refused and
            // the draft said nothing. (The run sets `storage.allow_delete_query`, as the
            // Storage API does for its own deletes.)
            let delete = onBensFile(
                "deletes", sql: "delete from storage.objects where \(row)",
                danger: "a signed-in user may delete other users' files in bucket \(bucket) (a delete of another user's file went through)",
                refusals: ["42501", "P0001"])
            guard !storage.publicBuckets.contains(bucket) else { return [change, delete] }
            let read = onBensFile(
                "reads", sql: "select 1 from storage.objects where \(row)",
                danger: "a signed-in user may read other users' files in bucket \(bucket), which is not public "
                    + "(a read of another user's file returned it)",
                refusals: ["42501"])
            return [read, change, delete]
        }
    }
}
