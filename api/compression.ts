/**
 * Which encoding to send (`Accept-Encoding`, read by negotiator like every
 * other header here). The projection reader uses it to pick the worker's
 * precompressed sibling (projections/precompress.ts).
 */
import Negotiator from 'negotiator';
import type { Context } from 'hono';
import { ENCODINGS, type Encoding } from '../core/encodings.ts';

/** The encoding the client prefers among `offered` (default: all we make), or null for identity. */
export function chooseEncoding(c: Context, offered: readonly Encoding[] = ENCODINGS): Encoding | null {
  const header = c.req.header('accept-encoding');
  if (!header) return null;
  // negotiator 1.x takes the server's preference for ties; @types/negotiator (0.6) does not declare it yet.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const chosen = negotiator.encoding([...offered, 'identity'], { preferred: [...offered, 'identity'] });
  return chosen && chosen !== 'identity' ? (chosen as Encoding) : null;
}
