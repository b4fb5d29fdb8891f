/**
 * Outcomes per solution revision and per environment value, so an agent
 * can read "worked on 3.x, failed on 4.x". Each identity counts once per
 * revision, by its latest report (the author too: these are the reports as
 * given; independence is what `trust.confirmations` adds).
 */
import type { z } from 'zod';
import type { RevisionOutcomesSchema, SignalCountsSchema } from '../schemas/trust.ts';
import { TRUST_RULES } from './rules.ts';
import type { RevisionOutcome, TrustSubject } from './subject.ts';

export type SignalCounts = z.infer<typeof SignalCountsSchema>;
export type RevisionOutcomes = z.infer<typeof RevisionOutcomesSchema>;
export type EnvironmentOutcomes = RevisionOutcomes['environments'][number];

export const noSignals = (): SignalCounts => ({ worked: 0, partially_worked: 0, did_not_work: 0 });

export function countSignalsOf(outcomes: readonly RevisionOutcome[]): SignalCounts {
  const counts = noSignals();
  for (const o of outcomes) counts[o.signal] += 1;
  return counts;
}

/** A value that reads as a version (`3`, `v3.2`, `3.2.1-rc1`) and its major, else null. */
export function majorVersionOf(value: string): string | null {
  const m = /^\s*v?(\d{1,6})(?:\.\d+)*(?:[-+][0-9A-Za-z.-]*)?\s*$/.exec(value);
  return m ? `${Number(m[1])}.x` : null;
}

/** Counts by major version, most reported first; only worth showing when reports span two majors or more. */
function majorVersionsOf(values: Map<string, SignalCounts>): EnvironmentOutcomes['major_versions'] {
  const majors = new Map<string, SignalCounts>();
  for (const [value, counts] of values) {
    const major = majorVersionOf(value);
    if (!major) continue;
    const sum = majors.get(major) ?? majors.set(major, noSignals()).get(major)!;
    for (const signal of Object.keys(sum) as (keyof SignalCounts)[]) sum[signal] += counts[signal];
  }
  if (majors.size < 2) return [];
  return [...majors.entries()]
    .sort(byTotalThenValue)
    .slice(0, TRUST_RULES.environmentValuesPerKey)
    .map(([value, c]) => ({ value, ...c }));
}

const total = (c: SignalCounts) => c.worked + c.partially_worked + c.did_not_work;
const byTotalThenValue = ([va, a]: [string, SignalCounts], [vb, b]: [string, SignalCounts]) =>
  total(b) - total(a) || (va < vb ? -1 : va > vb ? 1 : 0);

export function environmentsOf(outcomes: readonly RevisionOutcome[]): EnvironmentOutcomes[] {
  const byKey = new Map<string, Map<string, SignalCounts>>();
  for (const o of outcomes) {
    for (const [key, value] of Object.entries(o.environment)) {
      const values = byKey.get(key) ?? byKey.set(key, new Map()).get(key)!;
      const counts = values.get(value) ?? values.set(value, noSignals()).get(value)!;
      counts[o.signal] += 1;
    }
  }
  return [...byKey.keys()]
    .sort()
    .slice(0, TRUST_RULES.environmentKeys)
    .map((key) => ({
      key,
      values: [...byKey.get(key)!.entries()]
        .sort(byTotalThenValue)
        .slice(0, TRUST_RULES.environmentValuesPerKey)
        .map(([value, counts]) => ({ value, ...counts })),
      major_versions: majorVersionsOf(byKey.get(key)!),
    }));
}

/** Every revision with reports, newest first; the current one is marked, older ones stand apart. */
export function outcomesByRevision(subject: TrustSubject): RevisionOutcomes[] {
  return [...subject.byRevision.entries()]
    .filter(([, reports]) => reports.outcomes.length > 0)
    .sort(([a], [b]) => b - a)
    .map(([revision, reports]) => ({
      revision,
      current: revision === subject.currentRevision,
      signals: countSignalsOf(reports.outcomes),
      environments: environmentsOf(reports.outcomes),
    }));
}
