/**
 * What a reader is told about a record's trust, in sentences instead of
 * field names: how many independent agents it worked for, where it failed,
 * why the confidence is what it is, and whether it is disputed. The numbers
 * are the view's (`trust`, `signals`, `outcomes_by_revision`); the rules
 * quoted are core/trust/rules.ts's.
 */
import type { ProblemTrust, Trust } from '../../core/trust/assess.ts';
import type { RevisionOutcomes, SignalCounts } from '../../core/trust/breakdown.ts';
import type { RootContent } from 'mdast';
import { toString as textOf } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import { TRUST_RULES } from '../../core/trust/rules.ts';
import { parseMarkdown } from './markdown/render.ts';

const agents = (n: number) => `${n} independent agent${n === 1 ? '' : 's'}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const total = (s: SignalCounts) => s.worked + s.partially_worked + s.did_not_work;

const TITLE_MAX = 120;

/** Parsed as the body is rendered (site/lib/markdown/render.ts), so the title says what the reader sees. */
const parse = (text: string) => parseMarkdown(text).children;

/** Blocks a title is never taken from: code shows no words, the others show nothing. */
const NOT_WORDS = new Set(['code', 'thematicBreak', 'definition', 'footnoteDefinition', 'table']);

/** The first block's first line of words, depth first (a list item's or a quote's first paragraph). */
function firstLineOfWords(nodes: readonly RootContent[]): string | null {
  for (const node of nodes) {
    if (NOT_WORDS.has(node.type)) continue;
    if (node.type === 'html') {
      // Raw HTML is shown as the text it is; so it is named.
      const line = firstLine(node.value);
      if (line) return line;
      continue;
    }
    if (node.type === 'paragraph' || node.type === 'heading') {
      // A hard line break ends a line as a newline does; the text of a tree gives none for it.
      visit(node, 'break', (_, index, parent) => {
        if (parent && index !== undefined) parent.children[index] = { type: 'text', value: '\n' };
      });
      const line = firstLine(textOf(node));
      if (line) return line;
      continue;
    }
    if ('children' in node) {
      const line = firstLineOfWords(node.children as RootContent[]);
      if (line) return line;
    }
  }
  return null;
}

function firstLine(text: string): string | null {
  for (const raw of text.split(/\r\n?|\n/)) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line !== '' && !/^[-*_=|: ]+$/.test(line)) return line;
  }
  return null;
}

/** At most `max` characters, cut between characters (never inside a surrogate pair), marked with an ellipsis. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : text;
}

/**
 * A solution's title: the first line of words of its text as the page shows
 * it, Markdown read by the parser that renders the body (emphasis, links,
 * entities, escapes and autolinks become their text), not a code block.
 */
export function solutionTitle(body: string): string {
  const line = firstLineOfWords(parse(headOf(body))) ?? firstLineOfWords(parse(body));
  return line ? clip(line, TITLE_MAX) : 'Untitled solution';
}

const FENCE = /^\s{0,3}(```|~~~)/;
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*\S/;

/** Lines after a block's first line of words that can still change that line: a setext underline, a span carried over. */
const LINES_AFTER_FIRST = 2;
const LINE_READ = 1000;

/**
 * The text up to its first line of words and the two after it (their first
 * 1,000 characters each), fenced code left out (it shows no words, and a long log before the fix would be most
 * of the parse), with the link reference definitions found after it: all
 * the title can come from, parsed in a fraction of the time of a long body
 * (the parser costs about 1.5 ms a KiB). The whole body is parsed only when
 * that shows no words.
 */
function headOf(body: string): string {
  const lines = body.split(/\r\n?|\n/);
  const head: string[] = [];
  let inFence = false;
  let wordsAt = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (line.trim() === '' && wordsAt >= 0) {
      end = i;
      break;
    }
    if (wordsAt < 0 && line.trim() !== '' && !DEFINITION.test(line)) wordsAt = i;
    // A title is 120 characters of a line: a span it could hold ends well before this.
    head.push(line.length > LINE_READ ? line.slice(0, LINE_READ) : line);
    if (wordsAt >= 0 && i - wordsAt >= LINES_AFTER_FIRST) {
      end = i + 1;
      break;
    }
  }
  return [...head, '', ...lines.slice(end).filter((line) => DEFINITION.test(line))].join('\n');
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
