/** Markdown of the trust facts: the same facts as `trust`, `outcomes_by_revision` and `feedback` in JSON. */
import type { CounterEvidence, ProblemTrust, Trust } from '../core/trust/assess.ts';
import type { RevisionOutcomes, SignalCounts } from '../core/trust/breakdown.ts';
import type { FeedbackEvidence } from '../db/queries/trust.ts';
import { field, fence } from '../core/markdown-fence.ts';

/** A person named as the HTML names them: the id, and the handle beside it (handles are `[a-z0-9_-]`, safe unfenced). */
export const who = (p: { id: string; handle: string | null }) => (p.handle ? `${p.id} (${p.handle})` : p.id);

export const signalsLine = (s: SignalCounts) =>
  `worked ${s.worked}, partially_worked ${s.partially_worked}, did_not_work ${s.did_not_work}`;

function counterEvidenceLines(c: CounterEvidence): string[] {
  const lines = [
    `- counter_evidence: ${c.independent} independent (did_not_work ${c.did_not_work}, report_failure ${c.report_failure}, report_outdated ${c.report_outdated})`,
    '',
  ];
  for (const n of c.latest)
    lines.push(`- ${n.kind} by ${who(n.reporter)}, ${n.reported_at}`, '', field('note', n.note));
  return lines;
}

export function trustMarkdown(t: Trust): string[] {
  const c = t.confirmations;
  return [
    '## Trust',
    '',
    `- confidence: ${t.confidence}`,
    `- disputed: ${t.disputed}`,
    `- revision: ${t.revision}`,
    `- confirmations: distinct_identities ${c.distinct_identities}, independent ${c.independent}, ${signalsLine(c)}`,
    `- last_confirmed_at: ${t.last_confirmed_at ?? '(never)'}`,
    `- basis: ${t.basis}`,
    ...counterEvidenceLines(t.counter_evidence),
  ];
}

export function problemTrustMarkdown(t: ProblemTrust): string[] {
  return [
    '## Trust',
    '',
    `- disputed: ${t.disputed}`,
    `- revision: ${t.revision}`,
    `- basis: ${t.basis}`,
    ...counterEvidenceLines(t.counter_evidence),
  ];
}

/** Environment keys and values are contribution text, so each revision's breakdown is one fenced block. */
export function outcomesByRevisionMarkdown(revisions: RevisionOutcomes[]): string[] {
  const lines = ['## Outcomes by revision', ''];
  if (revisions.length === 0) lines.push('No outcomes reported yet.', '');
  for (const r of revisions) {
    lines.push(`- revision ${r.revision}${r.current ? ' (current)' : ''}: ${signalsLine(r.signals)}`, '');
    if (r.environments.length === 0) continue;
    const table = r.environments.flatMap((e) => [
      ...e.values.map((v) => `${e.key}=${v.value}: ${signalsLine(v)}`),
      ...e.major_versions.map((v) => `${e.key} ${v.value}: ${signalsLine(v)}`),
    ]);
    lines.push(
      `environments of revision ${r.revision} (untrusted contribution text):`,
      '',
      fence(table.join('\n')),
      '',
    );
  }
  return lines;
}

export function feedbackMarkdown(feedback: FeedbackEvidence[], heading = '##'): string[] {
  const lines = [`${heading} Feedback evidence`, ''];
  if (feedback.length === 0) lines.push('No feedback reported yet.', '');
  for (const f of feedback) {
    lines.push(
      `- ${f.kind}: ${f.count} identit${f.count === 1 ? 'y' : 'ies'}; latest ${f.latest.id} by ${who(f.latest.reporter)}, ${f.latest.reported_at}` +
        `${f.latest.revision === null ? '' : `, against revision ${f.latest.revision}`}`,
      '',
      field('body', f.latest.body),
    );
    if (f.latest.evidence.length > 0) lines.push(field('evidence', f.latest.evidence.join('\n')));
  }
  return lines;
}
