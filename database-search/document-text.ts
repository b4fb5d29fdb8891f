/**
 * The searchable parts of a search document, made from its record's current
 * text: the normalized text, the exact keys, the literal's key and the pair
 * keys. The same as the SQL refresh functions make them
 * (ak_search_refresh_families and ak_search_refresh_discussions,
 * db/migrations/000040.sql), from the same rules (normalize-rules.ts), but
 * computed in the worker, whose regular expression engine does in
 * microseconds what PostgreSQL's did in a good part of a millisecond per
 * document. test/database-search/document-build.test.ts compares the two.
 */
import type { BuiltDocument, DocumentSource } from '../db/queries/search-documents.ts';
import { exactKeys, keyHash, normalizeLiteral } from './normalize.ts';

/** Lines of a body that give exact keys: a trace's first lines hold its error; the rest are frames. */
const KEY_BODY_LINES = 40;

/** The MD5 keys of a normalized text (SQL `ak_search_keys`). */
function keysOf(normalized: string): string[] {
  return exactKeys(normalized).map(keyHash);
}

/** Distinct and sorted, as `ARRAY(SELECT DISTINCT …)` gives them. */
function distinctSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Exact keys of a document: its title's, its literal's, and those of its body's first lines. */
function documentKeys(titleN: string, literalN: string, bodyN: string): string[] {
  const firstLines = bodyN.split('\n').slice(0, KEY_BODY_LINES).join('\n');
  return distinctSorted([...keysOf(titleN), ...keysOf(literalN), ...keysOf(firstLines)]);
}

const SIDE = 3;

/** Whether a UTF-16 code unit is one of [a-z0-9]. */
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * For each two adjacent words (runs of [a-z0-9]) of a normalized text, the last three characters of
 * the first and the first three of the second (SQL `ak_search_pair_keys`, db/migrations/000012.sql).
 * A scan by character codes: a regular expression's match objects cost more than the rest of a
 * document's build.
 */
export function documentPairKeys(normalized: string): string[] {
  const keys = new Set<string>();
  let tail: string | null = null;
  let start = -1;
  for (let i = 0; i <= normalized.length; i++) {
    if (i < normalized.length && isWordChar(normalized.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    if (tail !== null) keys.add(`${tail} ${normalized.slice(start, Math.min(i, start + SIDE))}`);
    tail = normalized.slice(Math.max(start, i - SIDE), i);
    start = -1;
  }
  return distinctSorted(keys);
}

/** `concat_ws(E'\n', …)`: the parts present, one a line. */
const lines = (...parts: Array<string | null>) => parts.filter((p): p is string => p !== null).join('\n');

/**
 * The documents of the sources read for one catch-up batch (ak_search_document_sources): each problem
 * read whole, each solution read (with its problem's title, literal and product), each discussion.
 */
export function buildDocuments(sources: DocumentSource[]): BuiltDocument[] {
  const problems = new Map<string, { source: DocumentSource; titleN: string; literalN: string }>();
  const docs: BuiltDocument[] = [];
  for (const s of sources) {
    if (s.kind !== 'problem') continue;
    const titleN = normalizeLiteral(s.title!);
    const literalN = normalizeLiteral(s.literal!);
    problems.set(s.id, { source: s, titleN, literalN });
    // A problem read only for its solutions has no status: its own document is not refreshed.
    if (s.status === null) continue;
    const bodyN = normalizeLiteral(s.body);
    const text = lines(titleN, literalN === '' ? null : literalN, bodyN, normalizeLiteral(s.extra!));
    docs.push({
      id: s.id,
      type: 'problem',
      family: s.id,
      title: s.title!,
      snippet: s.snippet!,
      product: s.product,
      status: s.status,
      text_norm: text,
      exact_keys: documentKeys(titleN, literalN, bodyN),
      literal_key: s.has_literal ? keyHash(literalN) : null,
      pair_keys: documentPairKeys(text),
      created_at: s.created_at,
      updated_at: s.updated_at,
    });
  }
  for (const s of sources) {
    if (s.kind === 'problem') continue;
    if (s.kind === 'discussion') {
      const titleN = normalizeLiteral(s.title!);
      const bodyN = normalizeLiteral(s.body);
      const text = lines(titleN, bodyN, s.product === null ? null : normalizeLiteral(s.product));
      docs.push({
        id: s.id,
        type: 'discussion',
        family: s.id,
        title: s.title!,
        snippet: s.snippet!,
        product: s.product,
        status: s.status!,
        text_norm: text,
        exact_keys: documentKeys(titleN, '', bodyN),
        literal_key: null,
        pair_keys: documentPairKeys(text),
        created_at: s.created_at,
        updated_at: s.updated_at,
      });
      continue;
    }
    const problem = problems.get(s.family)!;
    const { titleN, literalN } = problem;
    const bodyN = normalizeLiteral(s.body);
    const product = problem.source.product!;
    const text = lines(titleN, literalN === '' ? null : literalN, bodyN, normalizeLiteral(product));
    docs.push({
      id: s.id,
      type: 'solution',
      family: s.family,
      title: problem.source.title!,
      snippet: s.snippet!,
      product,
      status: s.status!,
      text_norm: text,
      exact_keys: documentKeys(titleN, literalN, bodyN),
      literal_key: problem.source.has_literal ? keyHash(literalN) : null,
      pair_keys: documentPairKeys(text),
      created_at: s.created_at,
      updated_at: s.updated_at,
    });
  }
  return docs;
}
