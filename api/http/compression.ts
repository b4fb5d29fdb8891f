/**
 * Which encoding to send (`Accept-Encoding`, read by negotiator like every
 * other header here). The projection reader uses it to pick the worker's
 * precompressed sibling (projections/precompress.ts).
 */
import Negotiator from 'negotiator';
import type { Context } from 'hono';
import { ENCODINGS, type Encoding } from '../../core/encodings.ts';

/** The encoding the client prefers among `offered` (default: all we make), or null for identity. */
export function chooseEncoding(c: Context, offered: readonly Encoding[] = ENCODINGS): Encoding | null {
  return chooseEncodingFor(c.req.header('accept-encoding'), offered);
}

/**
 * Answers by header and offer, remembered: clients send a handful of
 * distinct Accept-Encoding values, and parsing one cost more than the rest of
 * a cached read. Bounded, since the header is the client's to choose.
 */
const chosen = new Map<string, Encoding | null>();
const MAX_REMEMBERED = 256;

export function chooseEncodingFor(
  header: string | undefined,
  offered: readonly Encoding[] = ENCODINGS,
): Encoding | null {
  if (!header) return null;
  const key = `${offered.join(',')}|${header}`;
  let answer = chosen.get(key);
  if (answer === undefined) {
    answer = negotiate(header, offered);
    if (chosen.size >= MAX_REMEMBERED) chosen.clear();
    chosen.set(key, answer);
  }
  return answer;
}

function negotiate(header: string, offered: readonly Encoding[]): Encoding | null {
  // negotiator 1.x takes the server's preference for ties; @types/negotiator (0.6) does not declare it yet.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const result = negotiator.encoding([...offered, 'identity'], { preferred: [...offered, 'identity'] });
  return result && result !== 'identity' ? (result as Encoding) : null;
}
