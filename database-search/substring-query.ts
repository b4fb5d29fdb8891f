/**
 * The substring kind's index condition (db/migrations/000012.sql). A word is
 * a run of [a-z0-9]; a record stores, for each two adjacent words, a pair
 * key: the last three characters of the first and the first three of the
 * second (`failed to` is `led to`). A record containing the normalized
 * query holds the key of every two adjacent words of the query, provided
 * each side is known: the query's first run may be the end of a longer word
 * and its last run the start of one, so such a run gives its key side only
 * when it has at least three characters (its last three, or first three,
 * are then the record's word's too); a run with a separator on both sides
 * is a whole word. Any subset of those keys is a condition every substring
 * match meets, so the statement reads the `pair_keys` index for a few of
 * them (the rarest, by the planner's statistics) and then checks the whole
 * query with strpos(); a query with no key (one word, or runs too short at
 * the ends) reads the trigram index.
 */

/** Characters of each word in a pair key. */
const SIDE = 3;

/**
 * Keys a query offers the statement, which looks it up by the four rarest of them
 * (db/queries/search/statement-text.ts): a literal's longest words are often its template's, held by
 * every record of it, where a shorter word tells them apart (`size 71`).
 */
const MAX_KEYS = 16;

/**
 * The pair keys of a normalized query, at most MAX_KEYS, those of the
 * longest words first (placeholders such as `<ip>:<n>` give short, common
 * ones; the statement takes them in this order when it has no statistics);
 * empty when it has none.
 */
export function pairKeys(normalized: string): string[] {
  const runs = [...normalized.matchAll(/[a-z0-9]+/g)].map((run) => ({
    word: run[0],
    wholeStart: run.index > 0,
    wholeEnd: run.index + run[0].length < normalized.length,
  }));
  const keys = new Map<string, number>();
  for (let i = 0; i + 1 < runs.length; i++) {
    const [a, b] = [runs[i]!, runs[i + 1]!];
    // Runs other than the first and last are whole; those two are whole when a separator closes them.
    if (!a.wholeStart && a.word.length < SIDE) continue;
    if (!b.wholeEnd && b.word.length < SIDE) continue;
    const key = `${a.word.slice(-SIDE)} ${b.word.slice(0, SIDE)}`;
    keys.set(key, Math.max(keys.get(key) ?? 0, a.word.length + b.word.length));
  }
  return [...keys]
    .sort((x, y) => y[1] - x[1])
    .slice(0, MAX_KEYS)
    .map(([key]) => key);
}
