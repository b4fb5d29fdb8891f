/**
 * A record's standing for a reader, from its `trust`: what the record pages
 * order solutions by (best first) and what the browser search weighs a page
 * by, so both agree with the API's ranking, where a disputed record sinks
 * and confidence orders near-equals (database-search/ranking.ts).
 */
import type { SignalCounts } from './breakdown.ts';
import type { Trust } from './assess.ts';

export type Standing = 'confirmed' | 'unconfirmed' | 'disputed';

type Judged = Pick<Trust, 'disputed' | 'confidence' | 'confirmations'>;

/** Confirmed: undisputed, with confidence, and at least one independent agent said it worked (partly is not enough). */
export function solutionStanding(trust: Judged): Standing {
  if (trust.disputed) return 'disputed';
  return trust.confidence > 0 && trust.confirmations.worked > 0 ? 'confirmed' : 'unconfirmed';
}

const RANK: Record<Standing, number> = { confirmed: 0, unconfirmed: 1, disputed: 2 };

/** The best of a record's solutions gives the record its standing; a disputed record stays disputed. */
export function recordStanding(disputed: boolean, solutions: readonly Judged[]): Standing {
  if (disputed) return 'disputed';
  return solutions.some((t) => solutionStanding(t) === 'confirmed') ? 'confirmed' : 'unconfirmed';
}

interface Ranked {
  trust: Judged;
  signals: SignalCounts;
}

/**
 * Best first: standing (disputed last), then confidence, then independent
 * confirmations, then fewer failures. Stable, so equals keep their order.
 */
export function byStanding(a: Ranked, b: Ranked): number {
  return (
    RANK[solutionStanding(a.trust)] - RANK[solutionStanding(b.trust)] ||
    b.trust.confidence - a.trust.confidence ||
    b.trust.confirmations.worked - a.trust.confirmations.worked ||
    a.trust.confirmations.did_not_work - b.trust.confirmations.did_not_work ||
    b.signals.worked - a.signals.worked
  );
}
