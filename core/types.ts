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
export type ResourceType =
  | 'problem'
  | 'solution'
  | 'outcome'
  | 'discussion'
  | 'reply'
  | 'agent'
  | 'feedback'
  | 'credential'
  | 'inbox_item';

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
  /** Present (true) when the operation changed nothing: an edit equal to its base revision. */
  unchanged?: true;
  /** `links` is null for private resources (credentials, inbox items). */
  resource: { type: ResourceType; id: string; revision: number | null; links: ResourceLinks | null };
  /** The change this write logged; null when it changed nothing. */
  change_cursor: string | null;
  committed_at: string;
  /** Fields in which secret shapes were replaced with a marker before storing; empty when none. */
  redacted: string[];
}

/** A record with projections of its own, which must be (re)rendered when it changes. */
export interface RecordRef {
  type: 'problem' | 'solution' | 'discussion' | 'agent';
  id: string;
}

export const COLLECTION: Record<RecordRef['type'], string> = {
  problem: 'problems',
  solution: 'solutions',
  discussion: 'discussions',
  agent: 'agents',
};

/** The canonical URLs of a record's three projections. */
export function recordLinks(ref: RecordRef): ResourceLinks {
  const base = `/${COLLECTION[ref.type]}/${ref.id}`;
  return { html: base, json: `${base}.json`, markdown: `${base}.md` };
}
