/**
 * Records stored before the scanner knew a shape: every stored contribution
 * text (every revision, not only the current one; outcome notes and
 * environments, discussions, replies, feedback, profiles, OAuth client
 * names, trust summaries) goes through the same scanner as a new write,
 * and what it finds is replaced in place. Updating a revision queues its
 * search documents for refresh; the scan refreshes them from the redacted
 * text, then scans them too. The caller re-renders the projections.
 *
 * Run by `npm run ops -- redact-secrets` and, once per rule-set version, by
 * `npm run migrate`.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { redactText, redactValue, SECRET_RULE_NAMES } from '../core/redact-secrets.ts';
import { withTransaction } from '../db/pool.ts';
import { noteRebuildOwed } from '../db/queries/owed-rebuilds.ts';
import { searchDocumentsCaughtUp } from '../operations/bulk-load.ts';

type ColumnKind = 'text' | 'jsonb' | 'text[]';

interface StoredText {
  table: string;
  /** The primary key, in order. */
  key: string[];
  columns: [name: string, kind: ColumnKind][];
}

/** Every table and column that holds contribution text or text derived from it. */
export const STORED_TEXT: readonly StoredText[] = [
  {
    table: 'problem_revisions',
    key: ['problem_id', 'revision'],
    columns: [
      ['title', 'text'],
      ['body', 'text'],
      ['product', 'text'],
      ['error_literal', 'text'],
      ['environment', 'jsonb'],
      ['tags', 'text[]'],
    ],
  },
  {
    table: 'solution_revisions',
    key: ['solution_id', 'revision'],
    columns: [
      ['body', 'text'],
      ['applicability', 'text'],
      ['limitations', 'text'],
    ],
  },
  {
    table: 'outcomes',
    key: ['id'],
    columns: [
      ['note', 'text'],
      ['environment', 'jsonb'],
    ],
  },
  {
    table: 'discussions',
    key: ['id'],
    columns: [
      ['title', 'text'],
      ['body', 'text'],
      ['product', 'text'],
    ],
  },
  { table: 'replies', key: ['id'], columns: [['body', 'text']] },
  {
    table: 'feedback_reports',
    key: ['id'],
    columns: [
      ['body', 'text'],
      ['evidence', 'jsonb'],
    ],
  },
  {
    table: 'identities',
    key: ['id'],
    columns: [
      ['display_name', 'text'],
      ['bio', 'text'],
    ],
  },
  { table: 'oauth_connections', key: ['grant_id'], columns: [['client_name', 'text']] },
  { table: 'record_trust', key: ['record_type', 'record_id'], columns: [['summary', 'jsonb']] },
  {
    table: 'search_documents',
    key: ['id'],
    columns: [
      ['title', 'text'],
      ['snippet', 'text'],
      ['text_norm', 'text'],
    ],
  },
];

export interface TableCounts {
  scanned: number;
  redacted: number;
}
export type RedactCounts = Record<string, TableCounts>;

const BATCH = 500;

function redactColumn(kind: ColumnKind, value: unknown): { value: unknown; redacted: boolean } {
  if (value === null || value === undefined) return { value, redacted: false };
  if (kind === 'text') return redactText(String(value));
  return redactValue(value);
}

/** Why a full rebuild is owed after stored text was redacted in place (db/queries/owed-rebuilds.ts). */
export const REDACTED_REASON = 'stored text redacted';

/** Scans one table in key order, a batch per transaction; rows that change are updated in place. */
async function redactTable(
  pool: pg.Pool,
  spec: StoredText,
  onBatch: (counts: TableCounts) => void,
): Promise<TableCounts> {
  const counts: TableCounts = { scanned: 0, redacted: 0 };
  const keys = spec.key.join(', ');
  const columns = spec.columns.map(([name]) => name).join(', ');
  let after: unknown[] | null = null;
  for (;;) {
    const where: string = after ? `WHERE (${keys}) > (${spec.key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
    const rows: Record<string, unknown>[] = (
      await pool.query(
        `SELECT ${keys}, ${columns} FROM ${spec.table} ${where} ORDER BY ${keys} LIMIT ${BATCH}`,
        after ?? [],
      )
    ).rows;
    if (rows.length === 0) break;
    const changes: { row: Record<string, unknown>; values: Record<string, unknown> }[] = [];
    for (const row of rows) {
      const values: Record<string, unknown> = {};
      for (const [name, kind] of spec.columns) {
        const result = redactColumn(kind, row[name]);
        if (result.redacted) values[name] = result.value;
      }
      if (Object.keys(values).length) changes.push({ row, values });
    }
    let redacted = 0;
    if (changes.length) {
      await withTransaction(pool, async (tx) => {
        const kinds = new Map(spec.columns);
        const param = (name: string, value: unknown) => (kinds.get(name) === 'jsonb' ? JSON.stringify(value) : value);
        const cast = (name: string) => ({ jsonb: '::jsonb', 'text[]': '::text[]', text: '::text' })[kinds.get(name)!];
        for (const { row, values } of changes) {
          const names = Object.keys(values);
          const sets = names.map((name, i) => `${name} = $${i + 1}${cast(name)}`);
          const match = spec.key.map((k, i) => `${k} = $${names.length + i + 1}`);
          // Only the value that was read: a write that landed since went through the scanner itself, and
          // a refresh (trust, search documents) since holds newer text than this row had.
          const unchanged = names.map(
            (name, i) => `${name} IS NOT DISTINCT FROM $${names.length + spec.key.length + i + 1}${cast(name)}`,
          );
          const updated = await tx.query(
            `UPDATE ${spec.table} SET ${sets.join(', ')} WHERE ${[...match, ...unchanged].join(' AND ')}`,
            [
              ...names.map((name) => param(name, values[name])),
              ...spec.key.map((k) => row[k]),
              ...names.map((name) => param(name, row[name])),
            ],
          );
          redacted += updated.rowCount ?? 0;
        }
        // The projections still show the old text: owed in this transaction, paid by a full rebuild.
        if (redacted > 0) await noteRebuildOwed(tx, REDACTED_REASON);
      });
    }
    counts.scanned += rows.length;
    counts.redacted += redacted;
    onBatch(counts);
    const last = rows.at(-1)!;
    after = spec.key.map((k) => last[k]);
  }
  return counts;
}

/**
 * Scans every stored contribution text and redacts what the scanner finds.
 * Counts per table: rows scanned, rows changed. Search documents come last.
 */
export async function redactStoredRecords(
  pool: pg.Pool,
  onProgress: (table: string, counts: TableCounts) => void = () => {},
): Promise<RedactCounts> {
  const counts: RedactCounts = {};
  for (const spec of STORED_TEXT) {
    // The revisions' updates queued their search documents for refresh: refresh them now, from the redacted text.
    if (spec.table === 'search_documents') await searchDocumentsCaughtUp(pool);
    counts[spec.table] = await redactTable(pool, spec, (c) => onProgress(spec.table, c));
  }
  return counts;
}

/** Rows changed across all tables. */
export function totalRedacted(counts: RedactCounts): number {
  return Object.values(counts).reduce((n, c) => n + c.redacted, 0);
}

/** The printed summary: one line per table, then the total. */
export function formatCounts(counts: RedactCounts): string {
  const lines = Object.entries(counts).map(([table, c]) => `  ${table}: ${c.scanned} scanned, ${c.redacted} redacted`);
  return [...lines, `  total: ${totalRedacted(counts)} rows redacted`].join('\n');
}

/** Names the rule set the scanner runs; a stored scan with another version is stale. */
export const SECRET_RULES_VERSION = createHash('sha256')
  .update(SECRET_RULE_NAMES.join('\n'))
  .digest('hex')
  .slice(0, 16);

/**
 * The migration step: scan the stored records once per rule-set version,
 * recorded in `secret_scans`. Returns the counts, or null when this version
 * has already scanned them.
 */
export async function redactStoredOncePerRules(
  pool: pg.Pool,
  onProgress?: (table: string, counts: TableCounts) => void,
): Promise<RedactCounts | null> {
  const done = await pool.query('SELECT 1 FROM secret_scans WHERE rules_version = $1::text', [SECRET_RULES_VERSION]);
  if (done.rowCount) return null;
  const counts = await redactStoredRecords(pool, onProgress);
  await recordScan(pool, counts);
  return counts;
}

/** Notes that this rule-set version has scanned the stored records. */
export async function recordScan(pool: pg.Pool, counts: RedactCounts): Promise<void> {
  await pool.query(
    `INSERT INTO secret_scans (rules_version, rows_redacted) VALUES ($1::text, $2::int)
     ON CONFLICT (rules_version) DO UPDATE SET rows_redacted = secret_scans.rows_redacted + EXCLUDED.rows_redacted, scanned_at = now()`,
    [SECRET_RULES_VERSION, totalRedacted(counts)],
  );
}
