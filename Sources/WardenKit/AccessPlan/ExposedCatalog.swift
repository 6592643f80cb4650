import Foundation
import WardenPostgres

/// The tables, views and functions of the exposed schemas, as the catalog has them
/// (extension members left out: they are not the project's).
package struct ExposedCatalog: Sendable {
    package struct Relation: Sendable {
        package var schema: String
        package var name: String
        /// pg_class.relkind: r table, p partitioned table, v view, m materialized view, f foreign table.
        package var kind: String
        package var columns: [String]
        /// Columns an update probe may set to themselves (not generated, not identity ALWAYS).
        package var assignableColumns: [String]
        /// Role -> the first of `assignableColumns` it may update (a table-wide UPDATE
        /// grant, or a column's: `grant update (caption)`), for the roles the catalog was
        /// read for; a role with none is not in it.
        package var updatableColumn: [String: String] = [:]
        /// Role -> the columns with a default it may not insert, for a role that may
        /// insert some columns only (`grant insert (id, name)`, leaving `created_by
        /// default auth.uid()` out): a client's insert leaves them to their defaults.
        package var defaultedColumnsNotInsertable: [String: [String]] = [:]
        /// Role -> the columns it may read, for a role that may read some columns only
        /// (`grant select (id, bio)`): a client's read names them (`select=id,bio`), where
        /// `select *` is refused (42501). A role with the table's own SELECT, or none, is
        /// not in it.
        /// Key column -> the other tables whose foreign keys reference it and keep it
        /// (`on update` no action, restrict or cascade): rows there that point at a row
        /// keep pointing at it whatever an update writes into its key (refused, 23503 or
        /// 23505, or followed). A link table owning the row through it keeps owning it.
        package var keyColumnsHeldBy: [String: [String]] = [:]
        package var readableColumns: [String: [String]] = [:]
        /// The primary key's columns, in the key's order; empty without one.
        package var primaryKey: [String] = []
        /// Whether row-level security applies to the user who read the catalog
        /// (`row_security_active`); when not, what that user sees of a table is every
        /// row, whatever a request's claims say.
        package var rowSecurityAppliesToReader = true
        package var isTable: Bool { kind == "r" || kind == "p" }
        package var qualifiedName: String { "\(schema).\(name)" }
        package var kindName: String { isTable ? "table" : kind == "v" ? "view" : kind == "m" ? "materialized view" : "relation" }
    }

    package struct Function: Sendable {
        package var oid: String
        /// The schema it is in (a call's `Content-Profile`).
        package var schema: String = ""
        /// `schema.name(argument types)`, as `to_regprocedure` reads it.
        package var signature: String
        /// `schema.name(argument names and types)`, as `pg_get_function_identity_arguments`
        /// prints them (how people often write a function's signature).
        package var namedSignature: String = ""
        /// Returns `trigger` or `event_trigger`. PostgREST leaves `trigger` functions out
        /// of its schema cache (`SchemaCache.hs`, `t.oid <> 'trigger'::regtype`); it lists
        /// `event_trigger` ones, but PostgreSQL refuses any call of either outside a
        /// trigger (0A000), so no request can use one. A plan need not list it.
        package var isTrigger = false
    }

    /// SQL for a function's signature as `to_regprocedure` reads it, whatever the
    /// session's search_path: `schema.name(type, ...)` with the input argument types only
    /// (no parameter names, no OUT parameters; a variadic one as its array type), each
    /// type schema-qualified unless it is built in. `p` is the pg_proc row, `n` its schema.
    /// (`pg_get_function_identity_arguments` adds names, which `to_regprocedure` refuses.)
    static let signatureSQL = """
        format('%I.%I(%s)', n.nspname, p.proname, coalesce((
            select string_agg(case when tn.nspname = 'pg_catalog' then format_type(t.oid, null)
                                   when et.oid is not null then format('%I.%I[]', etn.nspname, et.typname)
                                   else format('%I.%I', tn.nspname, t.typname) end, ', ' order by arg.position)
            from unnest(p.proargtypes::oid[]) with ordinality as arg(type, position)
            join pg_type t on t.oid = arg.type join pg_namespace tn on tn.oid = t.typnamespace
            left join pg_type et on t.typcategory = 'A' and et.oid = t.typelem and t.typelem <> 0
            left join pg_namespace etn on etn.oid = et.typnamespace), ''))
        """

    package var relations: [Relation]
    package var functions: [Function]
    /// `current_user` of the session that read the catalog.
    package var reader = ""

    /// The functions a client can call through the API: all but trigger functions.
    package var callableFunctions: [Function] { functions.filter { !$0.isTrigger } }

    package func relation(_ schema: String, _ name: String) -> Relation? {
        relations.first { $0.schema == schema && $0.name == name }
    }

    /// Reads the catalog for `schemas`. With `roles`, a relation none of them has any
    /// privilege on (such as `storage.migrations`, the storage server's own) is not
    /// exposed: no client can reach it, so there is nothing to plan.
    package static func read(_ connection: Connection, schemas: [String], roles: [String] = []) throws -> ExposedCatalog {
        // Both lists in one round trip (one pipelined unit; issue 18).
        var batch = PipelinedBatch()
        batch.add(queries(schemas: schemas, roles: roles))
        return try decoding(try connection.run(batch)[0])
    }

    /// The two queries `read` sends, in one unit: the relations, then the functions.
    static func queries(schemas: [String], roles: [String]) -> [SQL] {
        let schemaArray = PostgresArray.literal(schemas)
        return [
            """
            select n.nspname, c.relname, c.relkind::text,
                   array_to_json(array(select a.attname from pg_attribute a
                                        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                                        order by a.attnum))::text,
                   array_to_json(array(select a.attname from pg_attribute a
                                        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                                          and a.attgenerated = '' and a.attidentity <> 'a'
                                        order by a.attnum))::text,
                   pg_catalog.row_security_active(c.oid)::text, current_user::text,
                   (select json_object_agg(r.rolname, (
                             select a.attname from pg_attribute a
                             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                               and a.attgenerated = '' and a.attidentity <> 'a'
                               and has_column_privilege(r.oid, c.oid, a.attnum, 'UPDATE')
                             order by a.attnum limit 1))
                    from pg_roles r where r.rolname = any(\(PostgresArray.literal(roles))::text[]))::text,
                   (select json_object_agg(r.rolname, array(
                             select a.attname from pg_attribute a
                             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.atthasdef
                               and not has_column_privilege(r.oid, c.oid, a.attnum, 'INSERT')
                             order by a.attnum))
                             filter (where not has_table_privilege(r.oid, c.oid, 'INSERT')
                                       and has_any_column_privilege(r.oid, c.oid, 'INSERT'))
                    from pg_roles r where r.rolname = any(\(PostgresArray.literal(roles))::text[]))::text,
                   (select json_object_agg(k.attname, k.tables) from (
                      select a.attname, array_agg(distinct rc.relname::text) as tables
                      from pg_constraint f cross join unnest(f.confkey) as key(attnum)
                      join pg_attribute a on a.attrelid = c.oid and a.attnum = key.attnum
                      join pg_class rc on rc.oid = f.conrelid
                      where f.contype = 'f' and f.confrelid = c.oid and f.conrelid <> c.oid
                        and f.confupdtype in ('a', 'r', 'c')
                      group by a.attname) k)::text,
                   (select json_object_agg(r.rolname, array(
                             select a.attname from pg_attribute a
                             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                               and has_column_privilege(r.oid, c.oid, a.attnum, 'SELECT')
                             order by a.attnum))
                             filter (where not has_table_privilege(r.oid, c.oid, 'SELECT')
                                       and has_any_column_privilege(r.oid, c.oid, 'SELECT'))
                    from pg_roles r where r.rolname = any(\(PostgresArray.literal(roles))::text[]))::text,
                   array_to_json(array(select a.attname from pg_index i
                                        cross join unnest(i.indkey::int2[]) with ordinality as key(attnum, position)
                                        join pg_attribute a on a.attrelid = c.oid and a.attnum = key.attnum
                                        where i.indrelid = c.oid and i.indisprimary order by key.position))::text
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any(\(schemaArray)::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f')
              and not exists (select 1 from pg_depend d
                              where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
              and (cardinality(\(PostgresArray.literal(roles))::text[]) = 0 or exists (
                     select 1 from unnest(\(PostgresArray.literal(roles))::text[]) as api(role) join pg_roles r on r.rolname = api.role
                     where has_table_privilege(r.oid, c.oid, 'select, insert, update, delete')))
            order by n.nspname, c.relname
            """,
            """
            select p.oid::text, \(raw: Self.signatureSQL),
                   format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)),
                   (p.prorettype in ('pg_catalog.trigger'::pg_catalog.regtype,
                                     'pg_catalog.event_trigger'::pg_catalog.regtype))::text, n.nspname::text
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = any(\(schemaArray)::text[]) and p.prokind = 'f'
              and not exists (select 1 from pg_depend d
                              where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
            order by 2
            """,
        ]
    }

    /// The catalog from the outcomes of `queries(schemas:roles:)`' unit (throws its error).
    static func decoding(_ outcomes: [PipelinedBatch.Outcome]) throws -> ExposedCatalog {
        let (relationRows, functionRows) = (try outcomes[0].get().rows, try outcomes[1].get().rows)
        return ExposedCatalog(
            relations: relationRows.map { row in
                Relation(
                    schema: row[0] ?? "", name: row[1] ?? "", kind: row[2] ?? "",
                    columns: JSONStringArray.decode(row[3]), assignableColumns: JSONStringArray.decode(row[4]),
                    updatableColumn: JSONStringMap.decode(row[7]),
                    defaultedColumnsNotInsertable: row[8].flatMap {
                        try? JSONDecoder().decode([String: [String]].self, from: Data($0.utf8))
                    } ?? [:],
                    keyColumnsHeldBy: row[9].flatMap {
                        try? JSONDecoder().decode([String: [String]].self, from: Data($0.utf8))
                    } ?? [:],
                    readableColumns: row[10].flatMap {
                        try? JSONDecoder().decode([String: [String]].self, from: Data($0.utf8))
                    } ?? [:],
                    primaryKey: JSONStringArray.decode(row[11]),
                    rowSecurityAppliesToReader: row[5] != "false")
            },
            functions: functionRows.map {
                Function(
                    oid: $0[0] ?? "", schema: $0[4] ?? "", signature: $0[1] ?? "", namedSignature: $0[2] ?? "",
                    isTrigger: $0[3] == "true")
            },
            reader: (relationRows.first?[6] ?? nil) ?? "")
    }
}

/// Text-format PostgreSQL array literals for `$n::text[]` parameters.
enum PostgresArray {
    static func literal(_ items: [String]) -> String {
        "{" + items.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}

/// Decodes a JSON array of strings produced by `array_to_json` (names only).
/// A JSON object's string values by key (null values left out).
enum JSONStringMap {
    static func decode(_ text: String?) -> [String: String] {
        guard let text, let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { $0 as? String }
    }
}

enum JSONStringArray {
    static func decode(_ text: String?) -> [String] {
        guard let text, let data = text.data(using: .utf8),
            let array = try? JSONSerialization.jsonObject(with: data) as? [String]
        else { return [] }
        return array
    }
}
