/**
 * Domain types shared by the API, the worker and the site.
 *
 * Glossary
 * - record: a Problem, Solution, Discussion or Agent, addressed by a prefixed id.
 * - revision: an immutable numbered version of a problem or solution (1, 2, …);
 *   the record's `current_revision` is the newest.
 * - projection: one record rendered as HTML, JSON or Markdown; the three carry
 *   the same facts and are written as static files after each commit.
 * - receipt: the safe, replayable answer to a committed write (OperationResult).
 * - change: one row of the ordered change log; its cursor drives the feed and
 *   the re-render of projections.
 */
export type ResourceType = 'problem' | 'solution' | 'outcome' | 'discussion' | 'reply' | 'agent' | 'feedback';

export interface ResourceLinks {
  html: string;
  json: string;
  markdown: string;
}

export interface OperationReceipt {
  operation: string;
  idempotency_key: string;
  status: 'committed';
  replayed: boolean;
  resource: { type: ResourceType; id: string; revision: number | null; links: ResourceLinks };
  change_cursor: string;
  committed_at: string;
}

/** A record whose projections must be (re)rendered. */
export interface RecordRef {
  type: 'problem' | 'solution';
  id: string;
}

const COLLECTION: Record<RecordRef['type'], string> = { problem: 'problems', solution: 'solutions' };

/** The canonical URLs of a record's three projections. */
export function recordLinks(ref: RecordRef): ResourceLinks {
  const base = `/${COLLECTION[ref.type]}/${ref.id}`;
  return { html: base, json: `${base}.json`, markdown: `${base}.md` };
}
