/** The two numbers behind a confidence: a Wilson lower bound and its decay with age. */
import { TRUST_RULES } from './rules.ts';

const DAY_MS = 86_400_000;

/**
 * Lower bound of the Wilson score interval for `successes` out of `n`
 * (successes may be fractional: partial credit). 0 when n is 0, so a record
 * nobody confirmed has no confidence rather than an undefined one.
 */
export function wilsonLowerBound(successes: number, n: number, z: number = TRUST_RULES.wilsonZ): number {
  if (n <= 0) return 0;
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n);
  return Math.max(0, (centre - margin) / (1 + z2 / n));
}

/**
 * How much of a confidence is left `since` → `now`: halves every
 * `halfLifeDays`. Age is counted in whole days so that a projection rendered
 * twice on one day has the same bytes (and ETag); a future `since` (clock
 * skew) counts as no age.
 */
export function decayFactor(since: Date, now: Date, halfLifeDays: number = TRUST_RULES.halfLifeDays): number {
  const days = Math.max(0, Math.floor((now.getTime() - since.getTime()) / DAY_MS));
  return 0.5 ** (days / halfLifeDays);
}

export function roundConfidence(value: number): number {
  const scale = 10 ** TRUST_RULES.confidenceDecimals;
  return Math.round(Math.min(1, Math.max(0, value)) * scale) / scale;
}
