/**
 * `npm run ops -- import <file.jsonl>`: brings an existing knowledge base in
 * (operations/import-lines.ts describes a line), in two passes over the file.
 *
 * 1. Check: every line is parsed and checked as a write is (body schema,
 *    secret scanner), keys must be unique, a solution's problem must exist
 *    or come on an earlier line, and a key imported before must carry the
 *    same content. Any bad line stops the import before anything is written,
 *    and each is reported with its line number. The checked lines are
 *    spooled to a temporary file, so the secret scanner runs once per line.
 * 2. Load: the spooled lines in batches, each one transaction that claims
 *    its keys in the operation log, inserts the records with multi-row
 *    INSERTs, appends their changes (the feed, the sitemap and the render
 *    worker read them) and stores the receipts. A key claimed before is
 *    skipped, so a second run creates nothing and a killed run resumes.
 *
 * Then the search documents of everything loaded are built in large batches
 * by the worker's builder, and, when the service had no search document
 * before, their indexes after them (operations/bulk-load.ts), not per row.
 */
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { newId } from '../core/ids.ts';
import { servingStateOf } from '../core/serving-fence.ts';
import { recordLinks, type OperationReceipt, type RecordRef } from '../core/types.ts';
import { withTransaction } from '../db/pool.ts';
import {
  insertRecordBatch,
  CHANGES_PER_TRANSACTION,
  type ChangeRow,
  type DiscussionRow,
  insertChangeRows,
  type ProblemRevisionRow,
  type SolutionRevisionRow,
  type SolutionRow,
} from '../db/queries/bulk-records.ts';
import {
  claimImportKeys,
  ensureImportIdentity,
  existingProblemIds,
  findIdentityByHandle,
  findImportedKeys,
} from '../db/queries/imports.ts';
import { readServingFence } from '../db/queries/serving-fence.ts';
import { saveImportReceipts } from '../db/queries/imports.ts';
import { type ImportLine, ImportLineError, importIdempotencyKey, parseImportLine } from '../operations/import-lines.ts';
import { OPERATIONS } from '../operations/registry.ts';
import { finishBulkLoad, prepareBulkLoad } from '../operations/bulk-load.ts';
import { OperatorError } from './operator-error.ts';

/** Lines per load transaction: each appends one change per record, and a transaction may append 256. */
const LOAD_BATCH = CHANGES_PER_TRANSACTION;
/** Lines whose keys and problem references are checked against the database at once. */
const CHECK_BATCH = 1000;
/** Bad lines listed in the report; the rest are counted. */
const ERRORS_LISTED = 50;

export interface ImportOptions {
  /** Handle of the identity the records are imported as (made on first use). */
  author: string;
  onProgress?: (p: { phase: 'check' | 'load'; done: number; total: number }) => void;
}

export interface ImportSummary {
  lines: number;
  created: { problem: number; solution: number; discussion: number };
  /** Lines whose key an earlier import (or an interrupted run of this one) already created. */
  already_imported: number;
  /** Lines in which the secret scanner replaced something. */
  redacted: number;
  check_seconds: number;
  load_seconds: number;
  search_seconds: number;
}

/**
 * The file's text, refused where it is not UTF-8: a byte replaced by U+FFFD
 * would be imported unseen, where a request body with it is a 400.
 */
async function* utf8TextOf(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      yield decoder.decode(chunk as Buffer, { stream: true });
      offset += (chunk as Buffer).byteLength;
    }
    yield decoder.decode();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new OperatorError(
      `${file} is not UTF-8 text (invalid bytes at or after byte ${offset}); nothing was imported`,
    );
  }
}

/** The file's non-empty lines with their 1-based numbers. */
async function* linesOf(file: string): AsyncGenerator<{ text: string; line: number }> {
  const input = Readable.from(utf8TextOf(file));
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() !== '') yield { text, line };
  }
}

/** A solution line's problem: a key of a problem line, or a problem id. */
const problemRefOf = (l: ImportLine) => (l.type === 'solution' ? String(l.body.problem_id) : null);

/** Pass 1: checks every line; writes the checked ones to `spool`; throws OperatorError listing bad lines. */
async function checkFile(
  db: pg.Pool,
  file: string,
  spool: string,
  identityId: string | null,
  onProgress: (done: number) => void,
): Promise<{ lines: number; redacted: number }> {
  const errors: string[] = [];
  let bad = 0;
  const fail = (error: ImportLineError) => {
    bad++;
    if (errors.length < ERRORS_LISTED) errors.push(error.message);
  };
  const keys = new Set<string>();
  const problemKeys = new Set<string>();
  const out = createWriteStream(spool, 'utf8');
  let lines = 0;
  let redacted = 0;
  let pending: ImportLine[] = [];
  /** Solutions whose problem is not a key of an earlier line: checked against the database. */
  let unresolved: ImportLine[] = [];
  const flush = async () => {
    const known = identityId
      ? await findImportedKeys(
          db,
          identityId,
          pending.map((l) => l.idempotencyKey),
        )
      : new Map();
    for (const l of pending) {
      const before = known.get(l.idempotencyKey);
      if (before && before.requestHash !== l.requestHash)
        fail(new ImportLineError(l.line, `key "${l.key}" was imported before with different content`));
    }
    const refs = [...new Set(unresolved.map((l) => problemRefOf(l)!))];
    const ids = await existingProblemIds(db, refs);
    const imported = identityId ? await findImportedKeys(db, identityId, refs.map(importIdempotencyKey)) : new Map();
    for (const l of unresolved) {
      const ref = problemRefOf(l)!;
      if (ids.has(ref) || imported.get(importIdempotencyKey(ref))?.resourceType === 'problem') continue;
      fail(
        new ImportLineError(
          l.line,
          `body.problem_id: "${ref}" is neither a problem's id nor the key of a problem on an earlier line or in an earlier import`,
        ),
      );
    }
    pending = [];
    unresolved = [];
    onProgress(lines);
  };
  for await (const { text, line } of linesOf(file)) {
    lines++;
    let parsed: ImportLine;
    try {
      parsed = parseImportLine(text, line);
    } catch (error) {
      if (!(error instanceof ImportLineError)) throw error;
      fail(error);
      continue;
    }
    if (keys.has(parsed.key)) {
      fail(new ImportLineError(line, `key "${parsed.key}" is used by an earlier line; keys must be unique`));
      continue;
    }
    keys.add(parsed.key);
    if (parsed.type === 'problem') problemKeys.add(parsed.key);
    const ref = problemRefOf(parsed);
    if (ref !== null && !problemKeys.has(ref)) unresolved.push(parsed);
    if (parsed.redacted.length) redacted++;
    pending.push(parsed);
    if (!out.write(`${JSON.stringify(parsed)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
    if (pending.length >= CHECK_BATCH) await flush();
  }
  await flush();
  out.end();
  await finished(out);
  if (bad > 0) {
    const more = bad > errors.length ? `\n… and ${bad - errors.length} more` : '';
    throw new OperatorError(
      `${bad} of ${lines} lines cannot be imported; nothing was imported:\n${errors.join('\n')}${more}`,
    );
  }
  return { lines, redacted };
}

/** A spooled line as checked in pass 1. */
function spooledLine(text: string): ImportLine {
  const l = JSON.parse(text) as ImportLine & { createdAt: string | null };
  return { ...l, createdAt: l.createdAt ? new Date(l.createdAt) : null };
}

const CHANGE_KIND = new Map(OPERATIONS.map((o) => [o.name as string, o.change.kind]));

/**
 * The serving fence holds an import as it holds every write: read before
 * each batch, as the commit worker reads it before each commit, so `fence
 * on` (which returns once every reader has seen it) stops the load between
 * batches. What was loaded stays; running the command again resumes.
 */
async function refuseWhileFenced(pool: pg.Pool, summary: ImportSummary): Promise<void> {
  const state = servingStateOf(await readServingFence(pool), 0, new Date().toISOString());
  if (state.writes !== 'fenced') return;
  const created = summary.created.problem + summary.created.solution + summary.created.discussion;
  throw new OperatorError(
    `writes are fenced (${state.reason ?? state.source}); ${created} records were imported before the fence, ` +
      'run the import again once it is lowered: it resumes where it stopped',
  );
}

/** Loads one batch in one transaction; returns how many of each kind it created. */
async function loadBatch(
  pool: pg.Pool,
  identityId: string,
  batch: ImportLine[],
  summary: ImportSummary,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const now = new Date();
    const claimed = await claimImportKeys(
      tx,
      identityId,
      batch.map((l) => ({ key: l.idempotencyKey, operation: l.operation, requestHash: l.requestHash, at: now })),
    );
    const fresh = batch.filter((l) => claimed.has(l.idempotencyKey));
    const idOf = new Map(fresh.map((l) => [l.key, newId(l.type, (l.createdAt ?? now).getTime())]));
    // A solution's problem: a problem of this batch, else one imported before under that key, else an id.
    const refs = fresh.map(problemRefOf).filter((r): r is string => r !== null && !idOf.has(r));
    const before = await findImportedKeys(tx, identityId, [...new Set(refs)].map(importIdempotencyKey));
    const problemOf = (ref: string) => {
      if (idOf.has(ref)) return idOf.get(ref)!;
      const imported = before.get(importIdempotencyKey(ref));
      return imported?.resourceType === 'problem' ? imported.resourceId! : ref;
    };
    const problems: ProblemRevisionRow[] = [];
    const solutions: Array<SolutionRow & SolutionRevisionRow> = [];
    const discussions: DiscussionRow[] = [];
    const changes: ChangeRow[] = [];
    const agent: RecordRef = { type: 'agent', id: identityId };
    for (const l of fresh) {
      const id = idOf.get(l.key)!;
      const at = l.createdAt ?? now;
      const b = l.body as Record<string, string | undefined> & Record<string, unknown>;
      const head = { id, authorId: identityId, at };
      const change = { kind: CHANGE_KIND.get(l.operation)!, resourceType: l.type, resourceId: id, at: now };
      if (l.type === 'problem') {
        problems.push({
          ...head,
          title: b.title!,
          body: b.body!,
          product: b.product!,
          errorLiteral: b.error_literal ?? null,
          environment: (b.environment as Record<string, unknown> | undefined) ?? {},
          tags: (b.tags as string[] | undefined) ?? [],
        });
        changes.push({ ...change, revision: 1, affects: [{ type: 'problem', id }, agent] });
      } else if (l.type === 'solution') {
        const problemId = problemOf(b.problem_id!);
        solutions.push({
          ...head,
          problemId,
          body: b.body!,
          applicability: b.applicability ?? null,
          limitations: b.limitations ?? null,
        });
        changes.push({
          ...change,
          revision: 1,
          affects: [{ type: 'solution', id }, { type: 'problem', id: problemId }, agent],
        });
      } else {
        discussions.push({ ...head, title: b.title!, body: b.body!, product: b.product ?? null });
        changes.push({ ...change, revision: null, affects: [{ type: 'discussion', id }, agent] });
      }
    }
    await insertRecordBatch(tx, { problems, solutions, discussions });
    const cursors = changes.length ? await insertChangeRows(tx, changes) : [];
    const receipts = fresh.map(
      (l, i): OperationReceipt => ({
        operation: l.operation,
        idempotency_key: l.idempotencyKey,
        status: 'committed',
        replayed: false,
        resource: {
          type: l.type,
          id: idOf.get(l.key)!,
          revision: l.type === 'discussion' ? null : 1,
          links: recordLinks({ type: l.type, id: idOf.get(l.key)! }),
        },
        change_cursor: cursors[i]!,
        committed_at: now.toISOString(),
        redacted: l.redacted,
      }),
    );
    if (receipts.length) await saveImportReceipts(tx, identityId, receipts);
    summary.already_imported += batch.length - fresh.length;
    for (const l of fresh) summary.created[l.type]++;
  });
}

export async function importFile(pool: pg.Pool, file: string, options: ImportOptions): Promise<ImportSummary> {
  const progress = options.onProgress ?? (() => {});
  await access(file, constants.R_OK).catch((error: Error) => {
    throw new OperatorError(`cannot read ${file}: ${error.message}`);
  });
  const scratch = await mkdtemp(path.join(tmpdir(), 'ak-import-'));
  try {
    const spool = path.join(scratch, 'checked.jsonl');
    let started = performance.now();
    const known = await findIdentityByHandle(pool, options.author);
    const { lines, redacted } = await checkFile(pool, file, spool, known, (done) =>
      progress({ phase: 'check', done, total: done }),
    );
    const summary: ImportSummary = {
      lines,
      created: { problem: 0, solution: 0, discussion: 0 },
      already_imported: 0,
      redacted,
      check_seconds: (performance.now() - started) / 1000,
      load_seconds: 0,
      search_seconds: 0,
    };
    started = performance.now();
    await refuseWhileFenced(pool, summary);
    const identityId = known ?? (await ensureImportIdentity(pool, newId('agent'), options.author));
    await prepareBulkLoad(pool);
    let batch: ImportLine[] = [];
    let done = 0;
    for await (const { text } of linesOf(spool)) {
      batch.push(spooledLine(text));
      if (batch.length < LOAD_BATCH) continue;
      await refuseWhileFenced(pool, summary);
      await loadBatch(pool, identityId, batch, summary);
      done += batch.length;
      progress({ phase: 'load', done, total: lines });
      batch = [];
    }
    if (batch.length) {
      await refuseWhileFenced(pool, summary);
      await loadBatch(pool, identityId, batch, summary);
    }
    progress({ phase: 'load', done: lines, total: lines });
    summary.load_seconds = (performance.now() - started) / 1000;
    started = performance.now();
    const created = summary.created.problem + summary.created.solution + summary.created.discussion;
    await finishBulkLoad(pool, { champions: created > 0 });
    summary.search_seconds = (performance.now() - started) / 1000;
    return summary;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
