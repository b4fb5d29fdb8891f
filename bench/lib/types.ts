/**
 * What a bench is and what it reports. Every bench measures something and a
 * baseline in the same run, on the same machine, and reports the ratio: the
 * absolute numbers move with the machine and its load, the ratio much less.
 */
import type { BenchContext } from './context.ts';

export interface Bench {
  /** kebab-case; selects the bench on the command line and names its results file. */
  name: string;
  /** One line: what is measured, against what. */
  title: string;
  /** Wall-clock bound in seconds; run.ts stops the whole run if a bench overruns it by much. */
  budgetSeconds: number;
  run(ctx: BenchContext): Promise<BenchReport>;
}

/** One measured number next to its baseline. */
export interface Comparison {
  metric: string;
  unit: string;
  value: number;
  /** What the baseline is, e.g. "nginx, same file". */
  baselineLabel: string;
  baseline: number;
  /** Which way is good, so a reader knows whether a ratio above 1 is a win. */
  better: 'higher' | 'lower';
}

export interface BenchReport {
  comparisons: Comparison[];
  /** Settings and secondary numbers, kept in the JSON results. */
  details: Record<string, unknown>;
  notes?: string[];
}

export const ratioOf = (c: Comparison): number => (c.baseline === 0 ? Number.NaN : c.value / c.baseline);
