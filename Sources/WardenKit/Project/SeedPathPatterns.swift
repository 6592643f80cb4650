import Foundation

/// Expands `[db.seed] sql_paths` as the Supabase CLI does: each entry is a path or a
/// glob relative to the `supabase/` folder; entries apply in the order written, the
/// files one glob matches in name order, a file matched twice once. An entry that
/// matches nothing is no error (a project may not have its seed file yet).
enum SeedPathPatterns {
    struct Expansion {
        var files: [URL]
        /// Entries that matched no file, as written.
        var unmatched: [String]
    }

    static func expand(_ patterns: [String], in supabase: String, config: String) throws -> Expansion {
        var expansion = Expansion(files: [], unmatched: [])
        var seen = Set<String>()
        for pattern in patterns {
            let matches = try glob(resolve(pattern, in: supabase), config: config, shown: pattern)
            if matches.isEmpty { expansion.unmatched.append(pattern) }
            for path in matches where seen.insert(path).inserted {
                expansion.files.append(URL(fileURLWithPath: path))
            }
        }
        return expansion
    }

    /// The pattern relative to the working directory (`./seed.sql` -> `supabase/seed.sql`).
    static func resolve(_ pattern: String, in supabase: String) -> String {
        if pattern.hasPrefix("/") { return pattern }
        var relative = Substring(pattern)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return ProjectLayout.join(supabase, String(relative))
    }

    /// The regular files matching `pattern`, sorted by name (POSIX glob).
    static func glob(_ pattern: String, config: String, shown: String) throws -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        let status = Foundation.glob(pattern, 0, nil, &result)
        switch status {
        case 0: break
        case GLOB_NOMATCH: return []
        default: throw ProjectLayoutError.badSeedPattern(file: config, pattern: shown)
        }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            guard let pointer = result.gl_pathv[index] else { return nil }
            let path = String(cString: pointer)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
            return path
        }
    }
}
