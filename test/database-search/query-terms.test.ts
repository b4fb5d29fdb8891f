/**
 * A query's full-text terms are remembered (database-search/query-terms.ts):
 * the remembered answer is the database's own, and a repeated query asks
 * the database nothing.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPool, type Queryable } from '../../db/pool.ts';
import { findQueryTerms } from '../../db/queries/search.ts';
import { queryTerms } from '../../database-search/query-terms.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => (pool = clone.pool));

/** The pool, counting the statements sent through it. */
function counting(): Queryable & { sent: number } {
  const db = {
    sent: 0,
    query: (text: string, params?: unknown[]) => {
      db.sent++;
      return pool.query(text, params);
    },
  };
  return db as Queryable & { sent: number };
}

describe('queryTerms', () => {
  it('answers what the database answers, and asks it only the first time', async () => {
    const message = `the postgres pool keeps refusing connections after restarts ${Math.random()}`;
    const db = counting();
    const first = await queryTerms(db, message, 16);
    expect(first).toEqual(await findQueryTerms(pool, message, 16));
    expect(first).toContain("'postgr'");
    expect(db.sent).toBe(1);
    expect(await queryTerms(db, message, 16)).toEqual(first);
    expect(db.sent).toBe(1);
  });

  it('keeps the answer for each limit apart, and cannot be changed through an answer', async () => {
    const message = `one two three docker compose builds failing behind a proxy ${Math.random()}`;
    const db = counting();
    const all = await queryTerms(db, message, 16);
    const two = await queryTerms(db, message, 2);
    expect(two).toEqual(all.slice(0, 2));
    two.push('changed');
    expect(await queryTerms(db, message, 2)).toEqual(all.slice(0, 2));
    expect(db.sent).toBe(2);
  });

  it('asks the database every time for a text too long to keep', async () => {
    const message = `${'connection refused while reading the response '.repeat(50)}${Math.random()}`;
    const db = counting();
    const first = await queryTerms(db, message, 16);
    expect(await queryTerms(db, message, 16)).toEqual(first);
    expect(db.sent).toBe(2);
  });
});
