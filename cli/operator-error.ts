/**
 * The failures an operator can act on, as one line instead of a stack trace:
 * a refusal the CLI decided on, and a database that cannot be reached.
 */

/** A refusal the CLI decided on; its message is the whole story. */
export class OperatorError extends Error {}

/** Node's codes for a server that is not there or not answering. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);
/** PostgreSQL's SQLSTATEs for "you may not connect": the database does not exist, or the login is refused. */
const REFUSED_LOGIN = /^(3D000|28000|28P01|57P03)$/;

/** The URL without its password, to name in a message. */
export function safeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/** One line for an error the operator can fix, or null for anything else. */
export function operatorErrorOf(error: unknown, config: { DATABASE_URL: string; ASTRO_ENTRY: string }): string | null {
  if (error instanceof OperatorError) return error.message;
  const url = (error as { url?: unknown } | null)?.url;
  if (
    (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' &&
    typeof url === 'string' &&
    url.endsWith(config.ASTRO_ENTRY)
  ) {
    return `the built site is missing (${config.ASTRO_ENTRY}); run npm run build first`;
  }
  const causes = error instanceof AggregateError ? [error, ...error.errors] : [error];
  for (const cause of causes) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') continue;
    if (UNREACHABLE.has(code) || REFUSED_LOGIN.test(code)) {
      const why = (cause as Error).message || code;
      return (
        `cannot use the database at ${safeDatabaseUrl(config.DATABASE_URL)} (${why}); ` +
        'set DATABASE_URL to a running PostgreSQL, or start the service (npm start) for its embedded one'
      );
    }
  }
  return null;
}
