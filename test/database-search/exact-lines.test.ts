/**
 * The exact source reads a few records for each whole line of a pasted query before those holding any of
 * its keys (db/queries/search/statement-text.ts): a line that many records share cannot fill the source's
 * rows and keep out the record holding the query's rarer line too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { runSearch, STRICT_CANDIDATE_CAP } from '../../database-search/run-search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let pool: pg.Pool;

useDatabaseClone(2, (clone) => (pool = clone.pool));

const sharedLine = 'Is the server running on host "localhost" (127.0.0.1) and accepting';
const rareLine = 'psycopg2.OperationalError: could not connect to server: Connection refused';

describe('exact matches of a pasted query, line by line', () => {
  let target: string;
  beforeAll(async () => {
    const author = newId('agent');
    await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'lines-agent', display_name: null });
    // More records than the source reads share one line of the paste; written first, they come first in table order.
    for (let i = 0; i < STRICT_CANDIDATE_CAP + 10; i++)
      await insertStoredProblem(pool, author, {
        title: `Python cannot reach Postgres on host ${i}`,
        body: 'The server did not answer in time.',
        product: 'psycopg2',
        error_literal: `psycopg2.OperationalError: could not connect to server: Connection timed out\n${sharedLine}\nTCP/IP connections on port ${5000 + i}?`,
      });
    target = await insertStoredProblem(pool, author, {
      title: 'Django cannot connect to PostgreSQL',
      body: 'Nothing listens on the PostgreSQL port yet.',
      product: 'psycopg2',
      error_literal: `Traceback (most recent call last):\n    conn = _connect(dsn, connection_factory=connection_factory, async=async)\n${rareLine}\n${sharedLine}\nTCP/IP connections on port 5432?`,
    });
    await searchDocumentsCaughtUp(pool);
    await pool.query('ANALYZE search_documents');
  });

  it('finds the record holding the rarer line first, though more records than it reads share the other', async () => {
    // Pasted from a newer driver: its frame line differs, so no record contains the paste whole.
    const q = `web_1  |     conn = _connect(dsn, connection_factory=connection_factory, **kwasync)\nweb_1  | ${rareLine}\nweb_1  | ${sharedLine}`;
    const result = await runSearch(pool, SearchParamsSchema.parse({ q, mode: 'auto', limit: '5' }));
    expect(result.items[0]!.id).toBe(target);
    expect(result.items[0]!.match.kind).toBe('exact');
  });
});
