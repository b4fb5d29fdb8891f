/** Connection handling: the pool, the `Queryable` seam and transactions. */
import { createHash } from 'node:crypto';
import pg from 'pg';

// bigint (int8) columns arrive as strings; cursors stay strings on the wire.
export interface Queryable {
  // biome-ignore lint/suspicious/noExplicitAny: pg's own default row type; callers name theirs.
  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * Runs a statement, named when `name` is given: PostgreSQL then parses and
 * plans it once per connection (and, in a transaction with
 * `plan_cache_mode = force_generic_plan`, never again). Not for the embedded
 * database, whose connections share one session and so one namespace of
 * statement names.
 */
// biome-ignore lint/suspicious/noExplicitAny: pg's own default row type; callers name theirs.
export async function queryPrepared<R extends pg.QueryResultRow = any>(
  db: Queryable,
  name: string | undefined,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  return name === undefined ? db.query<R>(text, values) : (db as pg.ClientBase).query<R>({ name, text, values });
}

/** Statement names given per session at most; past this, statements run unnamed (a bound on the server's memory per session). */
const NAMED_PER_SESSION = 256;
const statementNames = new Map<string, string>();
const namedBySession = new WeakMap<pg.ClientBase, Set<string>>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `ak_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    // The texts are the code's own SQL, a few hundred at most; the bound is for safety.
    if (statementNames.size < 4 * NAMED_PER_SESSION) statementNames.set(text, name);
  }
  return name;
}

/**
 * `client` as a Queryable whose parameterised statements run named after
 * their text, so each is parsed, analysed and planned once per session
 * instead of once per call: about 5 % of the server's CPU per create_problem
 * commit, whose statements carry CTEs and up to ten parameters. For code that
 * only ever binds values with `$n` (never builds SQL from them), as the
 * commit's does. Not for the embedded database (see `queryPrepared`).
 */
export function withNamedStatements(client: pg.ClientBase): Queryable {
  let named = namedBySession.get(client);
  if (!named) namedBySession.set(client, (named = new Set()));
  const names = named;
  return {
    query<R extends pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]) {
      // Statements already named by their caller (`queryPrepared`), and statements without parameters, pass as they are.
      if (typeof text !== 'string' || values === undefined) return client.query<R>(text as string, values);
      const name = statementName(text);
      if (!names.has(name)) {
        if (names.size >= NAMED_PER_SESSION) return client.query<R>(text, values);
        names.add(name);
      }
      return client.query<R>({ name, text, values });
    },
  };
}

/**
 * `applicationName` names the pool's sessions in pg_stat_activity (and so to
 * an operator, or a bench attributing the server's CPU to its clients).
 * `sessionOptions` (`-c name=value …`, PostgreSQL's startup `options`) sets
 * every session of the pool from its first statement, at no round trip.
 */
export function createPool(
  connectionString: string,
  max = 10,
  applicationName?: string,
  sessionOptions?: string,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(applicationName ? { application_name: applicationName } : {}),
    ...(sessionOptions ? { options: sessionOptions } : {}),
  });
  // An idle client losing its server (a restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `fn` with one checked-out client and always gives it back. The pool
 * listens for errors on idle clients only: a checked-out client whose server
 * goes away between two queries (a restart while `fn` awaits something else)
 * emits 'error', which unheard would crash the process. Here it is heard, and
 * a broken client is destroyed on release instead of going back to the pool.
 */
export async function withClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient, markBroken: (e: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const markBroken = (error: Error) => {
    broken ??= error;
  };
  client.on('error', markBroken);
  try {
    return await fn(client, markBroken);
  } catch (error) {
    // A session that started read-only stays so after the database is switched
    // back: drop it, so the pool's next session sees the database as it is now.
    if (isReadOnlyError(error)) markBroken(error as Error);
    throw error;
  } finally {
    client.removeListener('error', markBroken);
    client.release(broken);
  }
}

/**
 * Runs `fn` in one transaction; commits on success, rolls back on throw.
 * `begin` may add settings to the BEGIN (`BEGIN; SET LOCAL …`), sent as one
 * round trip.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (tx: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  return withClient(pool, async (client, markBroken) => {
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(markBroken);
      throw error;
    }
  });
}

/** True for errors that mean "the database is not reachable right now". */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === '57P01' ||
    code === '57P03' ||
    code === '08006' ||
    code === '08001' ||
    code === '08003' ||
    (error instanceof Error && /Connection terminated|connection timeout/i.test(error.message))
  );
}

/**
 * True for "cannot execute … in a read-only transaction" (SQLSTATE 25006):
 * the server is a standby or the session is read-only. The service fences
 * writes then (core/serving-fence.ts) instead of failing them as 500s.
 * Looks through wrapping errors (`cause`) too.
 */
export function isReadOnlyError(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | null | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === '25006') return true;
  }
  return false;
}
