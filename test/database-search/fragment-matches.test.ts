/**
 * Mode auto, pasted text met only on a fragment (database-search/fragment-matches.ts): a traceback whose
 * shared frame line equals a line of another error's record still finds the record of its own error,
 * which holds most of its terms but none of its lines; a record whose literal is a whole line of the
 * paste stays first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { runSearch } from '../../database-search/run-search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let pool: pg.Pool;
let author: string;

useDatabaseClone(2, (clone) => (pool = clone.pool));
beforeAll(async () => {
  author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'fragment-agent', display_name: null });
});

async function createProblem(title: string, literal: string, body: string): Promise<string> {
  const id = await insertStoredProblem(pool, author, { title, body, product: 'pymysql', error_literal: literal });
  await searchDocumentsCaughtUp(pool);
  return id;
}

const search = (q: string) => runSearch(pool, SearchParamsSchema.parse({ q, mode: 'auto', limit: '5' }));

const errorLine = `pymysql.err.OperationalError: (2003, "Can't connect to MySQL server on 'quellbase' ([Errno 111] Connection refused)")`;
const pasted = [
  'Traceback (most recent call last):',
  '  File "/srv/shop/storage.py", line 41, in open_session',
  '    conn = pymysql.connect(host=settings.DB_HOST, user=settings.DB_USER)',
  errorLine,
].join('\n');

describe('mode auto, pasted text met only on a fragment', () => {
  let timedOut: string;
  let refused: string;
  beforeAll(async () => {
    // Shares the paste's frame line exactly, but is the other failure: the server never answered.
    timedOut = await createProblem(
      'quellbase MySQL connect from the shop times out',
      [
        '    conn = pymysql.connect(host=settings.DB_HOST, user=settings.DB_USER)',
        `pymysql.err.OperationalError: (2003, "Can't connect to MySQL server on 'quellbase' (timed out)")`,
      ].join('\n'),
      'A firewall drops the packets to the MySQL host; the connect waits for its timeout.',
    );
    // The paste's own error, posted from another host: no line in common, most of its terms.
    refused = await createProblem(
      'quellbase MySQL refuses connections from the shop',
      `pymysql.err.OperationalError: (2003, "Can't connect to MySQL server on '10.0.4.7' ([Errno 111] Connection refused)")`,
      'Nothing listens on the MySQL port: the server is down or bound to another address.',
    );
    // Other Python failures, so a traceback's own words are common and an error's words rare, as in a corpus.
    const errors = [
      'KeyError: ',
      'ValueError: invalid literal for int() with base 10: ',
      'ModuleNotFoundError: No module named ',
    ];
    for (let i = 0; i < 12; i++)
      await createProblem(
        `Python job ${i} fails`,
        `Traceback (most recent call last):\n  File "/srv/jobs/job${i}.py", line ${10 + i}, in run\n${errors[i % 3]}'field${i}'`,
        `The job reads a field the input does not have (${i}).`,
      );
    // As autovacuum would have: the second stage weighs terms by the planner's statistics.
    await pool.query('ANALYZE search_documents');
  });

  it('ranks the record of its own error, found by keywords, over the one sharing a frame line', async () => {
    const result = await search(pasted);
    expect(result.items[0]!.id).toBe(refused);
    expect(result.items.map((item) => item.id)).toContain(timedOut);
    // Each reports how it matched: the frame line's record exactly, the other by keywords.
    expect(result.items.find((item) => item.id === timedOut)!.match.kind).toBe('exact');
    expect(result.items[0]!.match.kind).toBe('keywords');
    expect(result.coverage.modes_tried).toEqual(['exact', 'substring', 'keywords']);
  });

  it('keeps first a record whose literal is a whole line of the paste, and reads no keywords', async () => {
    const line = await createProblem(
      'quellbase MySQL refused, the error line alone',
      errorLine,
      'The same refusal, posted as its one line.',
    );
    const result = await search(pasted);
    expect(result.items[0]!.id).toBe(line);
    expect(result.coverage.modes_tried).toEqual(['exact', 'substring']);
  });
});
