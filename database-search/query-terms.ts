/**
 * The full-text terms of a query (`findQueryTerms`), remembered. What
 * PostgreSQL's English configuration makes of a text depends on that text
 * alone, never on the records stored, so a remembered answer is the
 * answer; repeating it spares a search one round trip to the database.
 * Only terms are kept, never results.
 *
 * Whole queries seldom repeat (a symptom in words is each agent's own), but
 * their words do: a query is remembered by its pieces, the runs between its
 * white space, and its terms are its pieces' terms in order, each once, the
 * first `max`. That is the whole text's answer because the default parser
 * (src/backend/tsearch/wparser_def.c) reads no token across white space
 * but an HTML tag or comment, which starts with `<`: a state meeting white
 * space ends its token, or gives up on it and reads it otherwise, without
 * taking the white space in, and the parser then reads it as blank, so the
 * next piece starts in the blank state (`TPS_InSpace`). A piece is
 * therefore sent as the parser meets it in the query (`piecesOf`): followed
 * by white space unless it ends the query, and preceded by white space when
 * that changes how its first character is read. The normalizer's placeholders (`<n>`, `<path>`) are tags
 * that close before any white space; a query with any other `<`, or with
 * `<script>` or `<style>` (after which the parser skips text up to their
 * closing tag), is sent whole.
 * test/database-search/query-terms.test.ts compares both over the
 * evaluation's queries, the bench's and generated ones.
 */
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../db/pool.ts';
import { findPieceTerms, findQueryTerms } from '../db/queries/search.ts';

/** Queries sent whole (`SENT_WHOLE`) remembered, the least recently used dropped first. */
export const QUERY_TERMS_CACHE_SIZE = 2000;

/** Pieces remembered: a symptom's words, a literal's tokens (a few tens of characters each). */
export const PIECE_TERMS_CACHE_SIZE = 50_000;

/**
 * And at most this many characters of pieces and their terms together (about 4 MB), so queries of long
 * pieces (up to MAX_CACHED_CHARS each) cannot make the cache hold more than whole queries could.
 */
const PIECE_TERMS_CACHE_CHARS = 2_000_000;

/** Longer texts (a whole pasted trace) are not kept: they seldom repeat, and each would hold memory. */
const MAX_CACHED_CHARS = 2000;

const cache = new LRUCache<string, readonly string[]>({ max: QUERY_TERMS_CACHE_SIZE });
const pieceCache = new LRUCache<string, readonly string[]>({
  max: PIECE_TERMS_CACHE_SIZE,
  maxSize: PIECE_TERMS_CACHE_CHARS,
  sizeCalculation: (terms, piece) => piece.length + terms.reduce((sum, term) => sum + term.length, 0) + 1,
});

/** The parser's white space (`isspace` in the C locale): where no token but a tag continues. */
const WHITE_SPACE = /[ \t\n\v\f\r]+/g;

/** A `<` that may open a tag reaching past white space, or one after which the parser skips text. */
const SENT_WHOLE = /<(?![a-z]+>)|<(?:script|style)>/;

/**
 * The text's runs between white space, each as the parser reads it within the whole text: followed by a
 * space unless it ends the text, and preceded by one when that changes how its first character is read.
 */
export function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  const piece = (start: number, end: number) =>
    // After white space the parser is in TPS_InSpace, at the text's start in TPS_Base; the two read every
    // first character alike but `~` and `.`, which TPS_Base takes as the start of a path. Which white space
    // it is never matters (every state tests for white space as a class): one space stands for it.
    `${start > 0 && (text[start] === '~' || text[start] === '.') ? ' ' : ''}${text.slice(start, end)}${end < text.length ? ' ' : ''}`;
  let start = 0;
  for (const space of text.matchAll(WHITE_SPACE)) {
    if (space.index > start) pieces.push(piece(start, space.index));
    start = space.index + space[0].length;
  }
  if (start < text.length) pieces.push(piece(start, text.length));
  return pieces;
}

export async function queryTerms(
  db: Queryable,
  message: string,
  max: number,
  options: { prepared?: boolean } = {},
): Promise<string[]> {
  if (message.length > MAX_CACHED_CHARS) return findQueryTerms(db, message, max, options);
  if (SENT_WHOLE.test(message)) {
    const key = `${max}\u0000${message}`;
    const known = cache.get(key);
    if (known !== undefined) return [...known];
    const terms = await findQueryTerms(db, message, max, options);
    cache.set(key, Object.freeze([...terms]));
    return terms;
  }
  const pieces = piecesOf(message);
  const termsOf = pieces.map((piece) => pieceCache.get(piece));
  const missing = [...new Set(pieces.filter((_, i) => termsOf[i] === undefined))];
  if (missing.length > 0) {
    const found = new Map(
      (await findPieceTerms(db, missing, options)).map((terms, i) => [missing[i]!, Object.freeze(terms)] as const),
    );
    for (const [piece, terms] of found) pieceCache.set(piece, terms);
    pieces.forEach((piece, i) => {
      termsOf[i] ??= found.get(piece);
    });
  }
  // Each term once, where it first appears, as `findQueryTerms` groups them.
  const terms = new Set<string>();
  for (const pieceTerms of termsOf) {
    for (const term of pieceTerms!) {
      if (terms.size >= max) return [...terms];
      terms.add(term);
    }
  }
  return [...terms];
}
