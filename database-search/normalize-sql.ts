/**
 * Writes the SQL twin of normalize.ts from the same rule table, so the
 * stored side cannot drift from the query side: the migration holds this
 * text verbatim (a test compares them), and `npm run search:normalize-sql`
 * prints it for the next migration whenever a rule changes.
 */
import { KEY_LINE, NORMALIZE_RULES } from './normalize-rules.ts';

/** A SQL string literal; an escape string only when it must hold a line break. */
function sqlLiteral(text: string): string {
  if (!text.includes('\n')) return `'${text.replaceAll("'", "''")}'`;
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}

/** `$1` back-references become `\1`, PostgreSQL's spelling. */
function sqlReplacement(replacement: string): string {
  return sqlLiteral(replacement.replace(/\$(\d)/g, '\\$1'));
}

export function normalizeFunctionSql(): string {
  const steps = NORMALIZE_RULES.map(
    (rule) =>
      `  -- ${rule.name}\n  s := regexp_replace(s, ${sqlLiteral(rule.pattern)}, ${sqlReplacement(rule.replacement)}, 'g');`,
  );
  return `CREATE FUNCTION ak_search_normalize(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  s text := translate(input, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
BEGIN
${steps.join('\n')}
  RETURN s;
END
$fn$;

CREATE FUNCTION ak_search_is_key_line(line text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT length(line) >= ${KEY_LINE.minChars}
     AND (SELECT count(m[1]) FROM regexp_matches(line, ${sqlLiteral(KEY_LINE.word)}, 'g') AS m) >= ${KEY_LINE.minWords}
     AND line !~ ${sqlLiteral(KEY_LINE.boilerplate)}
$fn$;

CREATE FUNCTION ak_search_keys(normalized text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT coalesce(array_agg(DISTINCT md5(k)), '{}'::text[]) FROM (
    SELECT normalized AS k WHERE normalized <> ''
    UNION ALL
    SELECT line FROM unnest(string_to_array(normalized, E'\\n')) AS line WHERE ak_search_is_key_line(line)
  ) keys
$fn$;
`;
}
