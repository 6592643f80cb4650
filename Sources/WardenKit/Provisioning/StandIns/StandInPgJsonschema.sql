-- pgwarden's local stand-in for pg_jsonschema (a Rust extension plain PostgreSQL
-- cannot load), written from its documented API (supabase/pg_jsonschema README;
-- Supabase's guide "pg_jsonschema: JSON Schema Validation"): json_matches_schema,
-- jsonb_matches_schema, jsonschema_is_valid, jsonschema_validation_errors.
--
-- It validates with the JSON Schema keywords most schemas use: type, enum, const,
-- properties, required, additionalProperties, patternProperties, propertyNames,
-- minProperties, maxProperties, dependentRequired, items, prefixItems, contains,
-- minItems, maxItems, uniqueItems, minLength, maxLength, pattern (PostgreSQL's regular
-- expressions), minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, allOf,
-- anyOf, oneOf, not, if/then/else, and $ref to a place in the same schema ("#/$defs/x").
-- A validation keyword it does not know how to check raises an error saying so, never
-- a made-up answer; `format` is an annotation here (it is not checked). Keywords no
-- draft defines are ignored, as JSON Schema says. Error texts are its own, not the
-- jsonschema crate's.

-- The errors of `instance` against `schema` (`root`: the whole schema, for $ref), each
-- prefixed with the instance's path.
create function @extschema@._pgwarden_errors(schema jsonb, instance jsonb, root jsonb, path text)
  returns text[]
  language plpgsql immutable
  set search_path = pg_catalog
as $fn$
declare
  errors text[] := '{}';
  kind text := jsonb_typeof(instance);
  keyword text;
  item jsonb;
  element jsonb;
  key text;
  matched int;
  count int;
  pointer text[];
  types jsonb;
begin
  if jsonb_typeof(schema) = 'boolean' then
    if schema = 'false'::jsonb then return array[path || ': no value is allowed here']; end if;
    return errors;
  end if;
  if jsonb_typeof(schema) <> 'object' then
    raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: a schema must be an object or a boolean, not %', schema
      using errcode = 'invalid_parameter_value';
  end if;
  for keyword in select jsonb_object_keys(schema) loop
    if keyword in ('$dynamicRef', '$recursiveRef', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas',
                   'dependencies', 'minContains', 'maxContains', 'additionalItems') then
      raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: JSON Schema keyword "%" is not checked locally', keyword
        using errcode = 'feature_not_supported',
              hint = 'to validate with it, run against a server with pg_jsonschema (--database-url, e.g. Supabase''s own image)';
    end if;
  end loop;

  if schema ? '$ref' then
    if left(schema->>'$ref', 2) <> '#/' and schema->>'$ref' <> '#' then
      raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: only a $ref within the schema ("#/...") is followed, not %', schema->>'$ref'
        using errcode = 'feature_not_supported';
    end if;
    pointer := array(select replace(replace(part, '~1', '/'), '~0', '~')
                     from unnest(string_to_array(substr(schema->>'$ref', 3), '/')) part where part <> '');
    if root #> pointer is null then
      raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: $ref % names nothing in the schema', schema->>'$ref'
        using errcode = 'invalid_parameter_value';
    end if;
    errors := errors || @extschema@._pgwarden_errors(root #> pointer, instance, root, path);
  end if;

  if schema ? 'type' then
    types := case when jsonb_typeof(schema->'type') = 'array' then schema->'type' else jsonb_build_array(schema->'type') end;
    if not exists (
      select from jsonb_array_elements_text(types) t
      where t = kind or (t = 'integer' and kind = 'number' and (instance::text)::numeric = trunc((instance::text)::numeric))
    ) then
      errors := errors || (path || ': ' || instance::text || ' is not of type ' || (schema->'type')::text);
    end if;
  end if;
  if schema ? 'enum' and not exists (select from jsonb_array_elements(schema->'enum') e where e = instance) then
    errors := errors || (path || ': ' || instance::text || ' is not one of ' || (schema->'enum')::text);
  end if;
  if schema ? 'const' and schema->'const' <> instance then
    errors := errors || (path || ': ' || instance::text || ' is not ' || (schema->'const')::text);
  end if;

  if kind = 'object' then
    if schema ? 'required' then
      for key in select jsonb_array_elements_text(schema->'required') loop
        if not instance ? key then errors := errors || (path || ': "' || key || '" is a required property'); end if;
      end loop;
    end if;
    if schema ? 'dependentRequired' then
      for key, item in select * from jsonb_each(schema->'dependentRequired') loop
        if instance ? key and exists (select from jsonb_array_elements_text(item) d where not instance ? d) then
          errors := errors || (path || ': "' || key || '" needs ' || item::text);
        end if;
      end loop;
    end if;
    count := (select count(*) from jsonb_object_keys(instance));
    if schema ? 'minProperties' and count < (schema->>'minProperties')::numeric then
      errors := errors || (path || ': has fewer than ' || (schema->>'minProperties') || ' properties');
    end if;
    if schema ? 'maxProperties' and count > (schema->>'maxProperties')::numeric then
      errors := errors || (path || ': has more than ' || (schema->>'maxProperties') || ' properties');
    end if;
    for key, element in select * from jsonb_each(instance) loop
      matched := 0;
      if schema->'properties' ? key then
        matched := 1;
        errors := errors || @extschema@._pgwarden_errors(schema->'properties'->key, element, root, path || '/' || key);
      end if;
      if schema ? 'patternProperties' then
        for keyword, item in select * from jsonb_each(schema->'patternProperties') loop
          if key ~ keyword then
            matched := 1;
            errors := errors || @extschema@._pgwarden_errors(item, element, root, path || '/' || key);
          end if;
        end loop;
      end if;
      if matched = 0 and schema ? 'additionalProperties' then
        if schema->'additionalProperties' = 'false'::jsonb then
          errors := errors || (path || ': additional property "' || key || '" is not allowed');
        else
          errors := errors || @extschema@._pgwarden_errors(schema->'additionalProperties', element, root, path || '/' || key);
        end if;
      end if;
      if schema ? 'propertyNames' then
        errors := errors || @extschema@._pgwarden_errors(schema->'propertyNames', to_jsonb(key), root, path || '/' || key);
      end if;
    end loop;
  end if;

  if kind = 'array' then
    count := jsonb_array_length(instance);
    if schema ? 'minItems' and count < (schema->>'minItems')::numeric then
      errors := errors || (path || ': has fewer than ' || (schema->>'minItems') || ' items');
    end if;
    if schema ? 'maxItems' and count > (schema->>'maxItems')::numeric then
      errors := errors || (path || ': has more than ' || (schema->>'maxItems') || ' items');
    end if;
    if schema->'uniqueItems' = 'true'::jsonb and count > (select count(distinct e) from jsonb_array_elements(instance) e) then
      errors := errors || (path || ': has items that are not unique');
    end if;
    if jsonb_typeof(schema->'items') = 'array' then
      raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: "items" as an array (draft 7 tuples) is not checked locally; write "prefixItems"'
        using errcode = 'feature_not_supported';
    end if;
    for matched in 0 .. count - 1 loop
      element := instance->matched;
      if matched < coalesce(jsonb_array_length(schema->'prefixItems'), 0) then
        errors := errors || @extschema@._pgwarden_errors(schema->'prefixItems'->matched, element, root, path || '/' || matched);
      elsif schema ? 'items' then
        errors := errors || @extschema@._pgwarden_errors(schema->'items', element, root, path || '/' || matched);
      end if;
    end loop;
    if schema ? 'contains' and not exists (
      select from jsonb_array_elements(instance) e
      where cardinality(@extschema@._pgwarden_errors(schema->'contains', e, root, path)) = 0
    ) then
      errors := errors || (path || ': contains no item that matches "contains"');
    end if;
  end if;

  if kind = 'string' then
    if schema ? 'minLength' and char_length(instance #>> '{}') < (schema->>'minLength')::numeric then
      errors := errors || (path || ': is shorter than ' || (schema->>'minLength') || ' characters');
    end if;
    if schema ? 'maxLength' and char_length(instance #>> '{}') > (schema->>'maxLength')::numeric then
      errors := errors || (path || ': is longer than ' || (schema->>'maxLength') || ' characters');
    end if;
    if schema ? 'pattern' and not (instance #>> '{}') ~ (schema->>'pattern') then
      errors := errors || (path || ': does not match ' || (schema->'pattern')::text);
    end if;
  end if;

  if kind = 'number' then
    if jsonb_typeof(schema->'exclusiveMinimum') = 'boolean' or jsonb_typeof(schema->'exclusiveMaximum') = 'boolean' then
      raise exception 'pg_jsonschema is a local stand-in on the pgwarden twin: a boolean exclusiveMinimum/exclusiveMaximum (draft 4) is not checked locally'
        using errcode = 'feature_not_supported';
    end if;
    if schema ? 'minimum' and (instance::text)::numeric < (schema->>'minimum')::numeric then
      errors := errors || (path || ': ' || instance::text || ' is less than ' || (schema->>'minimum'));
    end if;
    if schema ? 'maximum' and (instance::text)::numeric > (schema->>'maximum')::numeric then
      errors := errors || (path || ': ' || instance::text || ' is greater than ' || (schema->>'maximum'));
    end if;
    if schema ? 'exclusiveMinimum' and (instance::text)::numeric <= (schema->>'exclusiveMinimum')::numeric then
      errors := errors || (path || ': ' || instance::text || ' is not greater than ' || (schema->>'exclusiveMinimum'));
    end if;
    if schema ? 'exclusiveMaximum' and (instance::text)::numeric >= (schema->>'exclusiveMaximum')::numeric then
      errors := errors || (path || ': ' || instance::text || ' is not less than ' || (schema->>'exclusiveMaximum'));
    end if;
    if schema ? 'multipleOf' and mod((instance::text)::numeric, (schema->>'multipleOf')::numeric) <> 0 then
      errors := errors || (path || ': ' || instance::text || ' is not a multiple of ' || (schema->>'multipleOf'));
    end if;
  end if;

  if schema ? 'allOf' then
    for item in select jsonb_array_elements(schema->'allOf') loop
      errors := errors || @extschema@._pgwarden_errors(item, instance, root, path);
    end loop;
  end if;
  if schema ? 'anyOf' and not exists (
    select from jsonb_array_elements(schema->'anyOf') s
    where cardinality(@extschema@._pgwarden_errors(s, instance, root, path)) = 0
  ) then
    errors := errors || (path || ': matches none of "anyOf"');
  end if;
  if schema ? 'oneOf' then
    matched := (select count(*) from jsonb_array_elements(schema->'oneOf') s
                where cardinality(@extschema@._pgwarden_errors(s, instance, root, path)) = 0);
    if matched <> 1 then errors := errors || (path || ': matches ' || matched || ' of "oneOf", not exactly one'); end if;
  end if;
  if schema ? 'not' and cardinality(@extschema@._pgwarden_errors(schema->'not', instance, root, path)) = 0 then
    errors := errors || (path || ': matches "not"');
  end if;
  if schema ? 'if' then
    if cardinality(@extschema@._pgwarden_errors(schema->'if', instance, root, path)) = 0 then
      if schema ? 'then' then errors := errors || @extschema@._pgwarden_errors(schema->'then', instance, root, path); end if;
    elsif schema ? 'else' then
      errors := errors || @extschema@._pgwarden_errors(schema->'else', instance, root, path);
    end if;
  end if;
  return errors;
end
$fn$;

create function @extschema@.jsonschema_validation_errors(schema json, instance json) returns text[]
  language sql immutable strict parallel safe
  set search_path = pg_catalog
  return @extschema@._pgwarden_errors(schema::jsonb, instance::jsonb, schema::jsonb, '');

create function @extschema@.json_matches_schema(schema json, instance json) returns boolean
  language sql immutable strict parallel safe
  set search_path = pg_catalog
  return cardinality(@extschema@._pgwarden_errors(schema::jsonb, instance::jsonb, schema::jsonb, '')) = 0;

create function @extschema@.jsonb_matches_schema(schema json, instance jsonb) returns boolean
  language sql immutable strict parallel safe
  set search_path = pg_catalog
  return cardinality(@extschema@._pgwarden_errors(schema::jsonb, instance, schema::jsonb, '')) = 0;

-- Whether the schema is one: an object or a boolean whose typed keywords have values
-- of their types (not the whole metaschema).
create function @extschema@.jsonschema_is_valid(schema json) returns boolean
  language sql immutable strict parallel safe
  set search_path = pg_catalog
  return jsonb_typeof(schema::jsonb) = 'boolean'
    or (jsonb_typeof(schema::jsonb) = 'object'
        and coalesce(jsonb_typeof(schema::jsonb->'type') in ('string', 'array'), true)
        and (not schema::jsonb ? 'type' or not exists (
              select from jsonb_array_elements_text(case when jsonb_typeof(schema::jsonb->'type') = 'array'
                                                         then schema::jsonb->'type' else jsonb_build_array(schema::jsonb->'type') end) t
              where t not in ('string', 'number', 'integer', 'boolean', 'object', 'array', 'null')))
        and coalesce(jsonb_typeof(schema::jsonb->'properties') = 'object', true)
        and coalesce(jsonb_typeof(schema::jsonb->'required') = 'array', true)
        and coalesce(jsonb_typeof(schema::jsonb->'enum') = 'array', true));
