/**
 * Champion lists (db/migrations/000016.sql): for each common term, the
 * documents where it weighs most, which a keyword search reads instead of
 * the term's whole posting list. The lists kept by compaction after writes
 * and edits are the lists a fresh build makes; a search over them answers
 * what the full scan answers while they hold every document of their terms;
 * documents changed since the last compaction are found before it runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { insertProblemRevision } from '../../db/queries/problems.ts';
import {
  CHAMPION_COMPACT_AT,
  buildSearchChampions,
  compactSearchChampions,
  readChampionState,
} from '../../db/queries/search.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { runSearch } from '../../database-search/run-search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let pool: pg.Pool;
let author: string;

useDatabaseClone(4, (clone) => (pool = clone.pool));
beforeAll(async () => {
  author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'champion-agent', display_name: null });
});

async function createProblem(title: string, body: string): Promise<string> {
  const id = await insertStoredProblem(pool, author, { title, body, product: 'champions', error_literal: null });
  await searchDocumentsCaughtUp(pool);
  return id;
}

async function editProblem(id: string, title: string, body: string): Promise<void> {
  const { rows } = await pool.query<{ revision: number }>(
    'SELECT current_revision AS revision FROM problems WHERE id = $1',
    [id],
  );
  const revision = rows[0]!.revision + 1;
  const at = new Date();
  await insertProblemRevision(pool, {
    problemId: id,
    revision,
    authorId: author,
    at,
    content: { title, body, product: 'champions', error_literal: null, environment: {}, tags: [] },
  });
  await pool.query('UPDATE problems SET current_revision = $2, updated_at = $3 WHERE id = $1', [id, revision, at]);
  await searchDocumentsCaughtUp(pool);
}

type Entry = { lexeme: string; weight: number; id: string };
async function lists(): Promise<Entry[]> {
  const { rows } = await pool.query<Entry>(
    `SELECT lexeme, weight, id FROM search_champions c
      WHERE EXISTS (SELECT FROM search_documents d WHERE d.id = c.id) ORDER BY lexeme, weight DESC, id`,
  );
  return rows;
}

// Made-up words, so no other test's records share them; each is held by several records.
const VOCABULARY = ['zorblat', 'quennix', 'fravold', 'mintrake', 'glosspar', 'hyvernot', 'plinketh', 'drossvel'];
const sentence = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => VOCABULARY[(i * 3 + k * 5) % VOCABULARY.length]).join(' ');

describe('champion lists', () => {
  it('kept by compaction after writes and edits, equal the lists a fresh build makes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await createProblem(`${sentence(i, 2)} problem ${i}`, `${sentence(i + 1, 2 + (i % 4))} seen here`));
    // Every term of three records or more gets a list of three: most lists are cut, and edits cross their edges.
    await buildSearchChampions(pool, 3, 3);
    // This corpus is small: what changes below is more than the fifth that makes a compaction build anew.
    await pool.query('UPDATE search_champion_state SET rebuild_share = 1');
    const built = await lists();
    expect(built.length).toBeGreaterThan(0);

    // New records, and edits that take a term out, make it weigh more (a title) or less (a longer body).
    for (let i = 12; i < 16; i++)
      ids.push(await createProblem(`${sentence(i, 3)} problem ${i}`, `${sentence(i, 1)} again`));
    for (const [k, id] of built.slice(0, 6).map((entry, k) => [k, entry.id] as const)) {
      await editProblem(
        id,
        k % 2 === 0 ? 'an unrelated title now' : `${VOCABULARY[k]} ${VOCABULARY[k]} ${VOCABULARY[k]}`,
        k % 3 === 0
          ? 'nothing of the vocabulary'
          : `${sentence(k, 6)} and many more words to make it longer than before`,
      );
    }
    expect(await compactSearchChampions(pool, 1)).toBeGreaterThan(0);
    const compacted = await lists();
    // Folding the same documents again changes nothing. (It may fold some again: the watermark is the oldest
    // transaction running anywhere in the cluster, which a parallel test's can hold below these writes.)
    await compactSearchChampions(pool, 1);
    expect(await lists()).toEqual(compacted);

    // What a build makes of every listed term now, read from its postings with the lists' average length.
    const { rows: rebuilt } = await pool.query<Entry>(
      `SELECT c.lexeme, c.weight, c.id
         FROM search_champion_state s
        CROSS JOIN ak_search_champions_of(ARRAY(SELECT lexeme FROM search_champion_terms), s.list_size, s.average_length) c
        ORDER BY c.lexeme, c.weight DESC, c.id`,
    );
    expect(compacted).toEqual(rebuilt);
  });

  it('answer a keyword search as the full scan does while they hold every document of their terms', async () => {
    const queries = [
      'zorblat quennix',
      'fravold mintrake glosspar',
      'hyvernot plinketh drossvel zorblat',
      'quennix problem seen',
    ];
    const search = async (q: string) => {
      const result = await runSearch(pool, SearchParamsSchema.parse({ q, mode: 'keywords', limit: '20' }));
      return result.items.map((item) => [item.id, item.match.coverage]);
    };
    await pool.query('ANALYZE search_documents');
    await pool.query('UPDATE search_champion_state SET built = false');
    const fullScan = await Promise.all(queries.map(search));
    expect(fullScan.every((items) => items.length > 0)).toBe(true);
    // Every term of any record gets a list long enough to hold all its records.
    await buildSearchChampions(pool, 1000, 1);
    await pool.query('ANALYZE search_champions');
    expect(await Promise.all(queries.map(search))).toEqual(fullScan);
  });

  it('find a document written after the last compaction, and one edited since, by its new text', async () => {
    await buildSearchChampions(pool, 1000, 1);
    const fresh = await createProblem('zorblat quennix fravold arrives late', 'written after the lists were built');
    const search = async (q: string) =>
      (await runSearch(pool, SearchParamsSchema.parse({ q, mode: 'keywords', limit: '20' }))).items.map(
        (item) => item.id,
      );
    expect(await search('zorblat quennix fravold late')).toContain(fresh);
    await editProblem(fresh, 'glosspar hyvernot now', 'plinketh only');
    expect(await search('zorblat quennix fravold late')).not.toContain(fresh);
    expect(await search('glosspar hyvernot plinketh')).toContain(fresh);
    await compactSearchChampions(pool, 1);
    expect(await search('glosspar hyvernot plinketh')).toContain(fresh);
  });

  it('tell the operator how many changed documents wait to be folded in, and how long once a compaction is due', async () => {
    await buildSearchChampions(pool, 1000, 1);
    const first = await createProblem('drossvel mintrake waits to be folded', 'written after the lists were built');
    // Its last update a minute ago: once a compaction is due, the lag is the age of the oldest document waiting.
    await pool.query(`UPDATE search_documents SET updated_at = now() - interval '60 seconds' WHERE id = $1`, [first]);
    // A few documents waiting on a quiet service are no lag: the worker folds them in once CHAMPION_COMPACT_AT wait.
    const quiet = await readChampionState(pool);
    expect(quiet).toMatchObject({ built: true, lagSeconds: 0 });
    expect(quiet.unfolded).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < CHAMPION_COMPACT_AT; i++) await createProblem(`drossvel waits too ${i}`, 'another one');
    const due = await readChampionState(pool);
    expect(due.unfolded).toBeGreaterThan(CHAMPION_COMPACT_AT);
    expect(due.lagSeconds).toBeGreaterThanOrEqual(60);
    // Once the watermark passes every stamp, nothing waits. (A compaction's own watermark is the oldest
    // transaction running anywhere in the cluster, which a parallel test's can hold back.)
    await pool.query('UPDATE search_champion_state SET watermark = pg_current_xact_id()');
    expect(await readChampionState(pool)).toEqual({ built: true, unfolded: 0, lagSeconds: 0 });
  });
});
