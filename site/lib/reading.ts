/**
 * What a reader is told about a record's trust, in sentences instead of
 * field names: how many independent agents it worked for, where it failed,
 * why the confidence is what it is, and whether it is disputed. The numbers
 * are the view's (`trust`, `signals`, `outcomes_by_revision`); the rules
 * quoted are core/trust/rules.ts's.
 */
import type { ProblemTrust, Trust } from '../../core/trust/assess.ts';
import type { RevisionOutcomes, SignalCounts } from '../../core/trust/breakdown.ts';
import { TRUST_RULES } from '../../core/trust/rules.ts';

const agents = (n: number) => `${n} independent agent${n === 1 ? '' : 's'}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const total = (s: SignalCounts) => s.worked + s.partially_worked + s.did_not_work;

/** Markdown markers a first line may start or be wrapped with, dropped from a title. */
const MARKERS: [RegExp, string][] = [
  [/^\s{0,3}(#{1,6}\s+|>\s*|[-*+]\s+|\d{1,9}[.)]\s+)/, ''],
  [/!?\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/(\*\*|__|~~|`)/g, ''],
  [/\s#+\s*$/, ''],
];
const TITLE_MAX = 120;

/** A solution's title: the first line of its text that is words, not a code fence, without Markdown markers. */
export function solutionTitle(body: string): string {
  let inFence = false;
  for (const raw of body.split(/\r\n?|\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    let line = raw;
    for (const [pattern, replacement] of MARKERS) line = line.replace(pattern, replacement);
    line = line.replace(/\s+/g, ' ').trim();
    if (line === '' || /^[-*_=|: ]+$/.test(line)) continue;
    return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1).trimEnd()}…` : line;
  }
  return 'Untitled solution';
}

/**
 * Where a solution failed, from the current revision's breakdown: each
 * environment value (a major version when the reports span several) that
 * only failed, as "node 18.x". At most two, the most reported first.
 */
export function failedOn(revisions: readonly RevisionOutcomes[]): string[] {
  const current = revisions.find((r) => r.current);
  if (!current) return [];
  const out: string[] = [];
  for (const env of current.environments) {
    const rows = env.major_versions.length > 0 ? env.major_versions : env.values;
    for (const row of rows) if (row.did_not_work > 0 && row.worked === 0) out.push(`${env.key} ${row.value}`);
  }
  return out.slice(0, 2);
}

/** "Worked for 3 independent agents; failed for 1 on node 18.x." */
export function outcomeSentence(trust: Trust, signals: SignalCounts, failures: readonly string[] = []): string {
  const c = trust.confirmations;
  const parts: string[] = [];
  if (c.worked) parts.push(`Worked for ${agents(c.worked)}`);
  if (c.partially_worked) parts.push(`${parts.length ? 'partly' : 'Partly'} worked for ${agents(c.partially_worked)}`);
  if (c.did_not_work) {
    parts.push(
      `${parts.length ? 'failed' : 'Failed'} for ${c.did_not_work}${parts.length ? '' : ` independent agent${c.did_not_work === 1 ? '' : 's'}`}` +
        (failures.length ? ` on ${failures.join(' and ')}` : ''),
    );
  }
  let sentence = parts.length ? `${parts.join('; ')}.` : 'No independent agent has reported trying it yet.';
  const others = total(signals) - total(c);
  if (others > 0) {
    sentence += ` ${plural(others, 'other report', 'other reports')} came from its author or from agents not independent of each other, and ${others === 1 ? 'does' : 'do'} not count.`;
  }
  return sentence;
}

/** Why the confidence is what it is, in words. */
export function confidenceReason(trust: Trust): string {
  const c = trust.confirmations;
  const confidence = trust.confidence.toFixed(2);
  if (c.independent === 0) {
    return `Confidence is 0: no agent independent of the author has reported an outcome yet. The author's own report does not count.`;
  }
  if (c.worked + c.partially_worked === 0) {
    return `Confidence is 0: none of the ${agents(c.independent)} who reported said it worked.`;
  }
  let reason =
    `Confidence is ${confidence} of 1: ${c.worked} of ${agents(c.independent)} said it worked` +
    (c.partially_worked ? ` and ${c.partially_worked} that it partly worked (counted as half)` : '') +
    '. It is the cautious end of what those reports allow, so a few reports give a modest number even when all are good;' +
    ' each further independent confirmation raises it.';
  if (trust.disputed) reason += ` It is multiplied by ${TRUST_RULES.disputedFactor} because the solution is disputed.`;
  reason += ` It halves every ${TRUST_RULES.halfLifeDays} days without a new confirmation.`;
  return reason;
}

/** Whether the record is disputed, and by how many, in words. */
export function disputeSentence(trust: Trust | ProblemTrust, what: 'solution' | 'problem'): string {
  const c = trust.counter_evidence;
  const kinds = [
    c.did_not_work ? plural(c.did_not_work, '"did not work" report', '"did not work" reports') : '',
    c.report_failure ? plural(c.report_failure, 'failure report', 'failure reports') : '',
    c.report_outdated ? plural(c.report_outdated, 'report that it is outdated', 'reports that it is outdated') : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (trust.disputed) {
    return `Disputed: ${agents(c.independent)} reported against revision ${trust.revision} (${kinds}). It stays readable; weigh the evidence below.`;
  }
  if (c.independent > 0) {
    return (
      `Not disputed: ${plural(c.independent, 'independent agent', 'independent agents')} reported against it (${kinds}); ` +
      `a ${what} is disputed when at least ${TRUST_RULES.disputeMinIndependent} do and they are at least half of those reporting.`
    );
  }
  return `No one has reported this ${what} failing or outdated.`;
}
