/** Connection handling: the pool, the `Queryable` seam and transactions. */
import pg from 'pg';

// bigint (int8) columns arrive as strings; cursors stay strings on the wire.
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its server (a restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `fn` in one transaction; commits on success, rolls back on throw.
 * A broken connection is destroyed on release instead of going back to the pool.
 */
export async function withTransaction<T>(pool: pg.Pool, fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // The pool listens for errors on idle clients only. A checked-out client
  // whose server goes away between two queries (a restart while `fn` awaits
  // something else) emits 'error'; unheard, that would crash the process.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken ??= rollbackError;
    });
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/** True for errors that mean "the database is not reachable right now". */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === '57P01' ||
    code === '57P03' || code === '08006' || code === '08001' || code === '08003' ||
    (error instanceof Error && /Connection terminated|connection timeout/i.test(error.message))
  );
}
