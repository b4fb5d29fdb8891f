/**
 * withNamedStatements (db/pool.ts): the commit's statements run named, so the
 * server parses and plans each once per session. Real PostgreSQL; what the
 * session holds is read from pg_prepared_statements on the same connection.
 */
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { withNamedStatements, withTransaction } from '../../db/pool.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(1, (clone) => (pool = clone.pool));

const preparedIn = async (client: pg.ClientBase) =>
  (
    await client.query<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
    )
  ).rows;

describe('withNamedStatements', () => {
  it('runs a parameterised statement named after its text, prepared once per session, with the same answers', async () => {
    const text = 'SELECT $1::int + $2::int AS sum';
    const sums = await withTransaction(pool, async (client) => {
      const tx = withNamedStatements(client);
      const answers = [];
      for (const [a, b] of [
        [1, 2],
        [40, 2],
        [-5, 5],
      ] as const)
        answers.push((await tx.query<{ sum: number }>(text, [a, b])).rows[0]!.sum);
      const prepared = await preparedIn(client);
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^ak_[0-9a-f]{24}$/);
      expect(prepared[0]!.statement).toBe(text);
      return answers;
    });
    expect(sums).toEqual([3, 42, 0]);
  });

  it('gives the same text the same name in a later transaction on the same session, and leaves statements without parameters unnamed', async () => {
    await withTransaction(pool, async (client) => {
      const tx = withNamedStatements(client);
      expect((await tx.query<{ sum: number }>('SELECT $1::int + $2::int AS sum', [2, 2])).rows[0]!.sum).toBe(4);
      expect((await tx.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      expect(await preparedIn(client)).toHaveLength(1);
    });
  });

  it('lets an error in a named statement fail its transaction only, and the statement runs again afterwards', async () => {
    const text = 'SELECT 1 / $1::int AS q';
    await expect(withTransaction(pool, (client) => withNamedStatements(client).query(text, [0]))).rejects.toMatchObject(
      { code: '22012' },
    );
    const q = await withTransaction(
      pool,
      async (client) => (await withNamedStatements(client).query<{ q: number }>(text, [1])).rows[0]!.q,
    );
    expect(q).toBe(1);
  });
});
