/**
 * The serving fence: while it stands, every write is refused with 503
 * `temporarily_unavailable`, reason `serving_fenced`, before anything is
 * queued; reads, search, the feed, the inbox and the static projections go on.
 *
 * It stands when an operator raised it (`npm run ops -- fence on`, or the
 * operator endpoint; stored in PostgreSQL) or when the database itself refuses
 * writes (a standby in recovery, or `default_transaction_read_only`): then the
 * service fences itself rather than answer 500s, and lifts that fence as soon
 * as the database takes writes again.
 *
 * Each process reads the state at most once a second and uses it for at most
 * a second after the read began, so a raised fence holds everywhere within a
 * second. The reading itself (SQL) is passed in: this module does no I/O.
 */
import type { z } from 'zod';
import { apiError, type ApiError } from './errors.ts';
import type { FenceChangeSchema, FenceStatusSchema, ServingStateSchema } from './schemas/fence.ts';

/** How long any process may act on a fence state it read. */
export const FENCE_MAX_AGE_MS = 1000;

/** Retry-After of an operator's fence raised without `--retry-after`. */
export const DEFAULT_FENCE_RETRY_AFTER_SECONDS = 30;

/** One read of the fence row and of the database's own state (db/queries/serving-fence.ts). */
export interface FenceReading {
  /** Null when no fence was ever raised. */
  fenced: boolean | null;
  reason: string | null;
  retry_after_seconds: number | null;
  raised_by: string | null;
  raised_at: Date | null;
  lowered_by: string | null;
  lowered_at: Date | null;
  /** The server is a standby (hot standby during recovery): every write fails. */
  in_recovery: boolean;
  /** New sessions on this database start read-only (default_transaction_read_only). */
  read_only_configured: boolean;
}

/** What `/api/v1` reports and what a refusal is built from. */
export type ServingState = z.infer<typeof ServingStateSchema>;

export const OPEN: ServingState = {
  writes: 'open',
  source: null,
  reason: null,
  since: null,
  retry_after_seconds: null,
};

export interface ServingFence {
  /** The state, at most FENCE_MAX_AGE_MS old. When it cannot be read, writes are open: they then meet the outage themselves. */
  current(): Promise<ServingState>;
  /** Throws the 503 `serving_fenced` refusal when the fence stands. */
  refuseWhileFenced(): Promise<void>;
  /** Forget the cached state, so the next call reads afresh (a write was just refused as read-only). */
  invalidate(): void;
}

export interface ServingFenceOptions {
  /** Retry-After while the database refuses writes (the operator's fence carries its own). */
  retryAfterSeconds: number;
  now?: () => number;
}

function databaseReason(row: FenceReading): string {
  return row.in_recovery
    ? 'the database is a read-only standby (in recovery)'
    : 'the database is read-only (default_transaction_read_only)';
}

/** The state a fence row describes; `databaseSince` is when this process first saw the database refuse writes. */
export function servingStateOf(row: FenceReading, retryAfterSeconds: number, databaseSince: string): ServingState {
  if (row.fenced) {
    return {
      writes: 'fenced',
      source: 'operator',
      reason: row.reason,
      since: row.raised_at?.toISOString() ?? null,
      retry_after_seconds: row.retry_after_seconds,
    };
  }
  if (row.in_recovery || row.read_only_configured) {
    return {
      writes: 'fenced',
      source: 'database',
      reason: databaseReason(row),
      since: databaseSince,
      retry_after_seconds: retryAfterSeconds,
    };
  }
  return OPEN;
}

/** The refusal every write meets while the fence stands, over HTTP and the tool protocol alike. */
export function fencedError(state: ServingState, fallbackRetryAfter: number): ApiError {
  const retryAfter = state.retry_after_seconds ?? fallbackRetryAfter;
  const cause =
    state.source === 'operator'
      ? `by the operator: ${state.reason?.replace(/[.\s]+$/, '')}`
      : `because ${state.reason ?? 'the database refuses writes'}`;
  return apiError('serving_fenced', { cause }, { retryAfter });
}

const REFUSED_AS_READ_ONLY = 'the database refused a write as read-only';

/**
 * The refusal of a write the database itself refused as read-only (SQLSTATE
 * 25006) before this process's fence saw it (it looks at most once a second).
 */
export function readOnlyRefusal(retryAfterSeconds: number): ApiError {
  return fencedError(
    {
      writes: 'fenced',
      source: 'database',
      reason: REFUSED_AS_READ_ONLY,
      since: null,
      retry_after_seconds: retryAfterSeconds,
    },
    retryAfterSeconds,
  );
}

/** What the operator status shows: the state in force, who raised it, when and why, and the database's own state. */
export type FenceStatus = z.infer<typeof FenceStatusSchema>;

export function fenceStatusOf(row: FenceReading, retryAfterSeconds: number, now = new Date()): FenceStatus {
  return {
    ...servingStateOf(row, retryAfterSeconds, now.toISOString()),
    operator:
      row.fenced === null
        ? null
        : {
            fenced: row.fenced,
            reason: row.reason!,
            retry_after_seconds: row.retry_after_seconds!,
            raised_by: row.raised_by!,
            raised_at: row.raised_at!.toISOString(),
            lowered_by: row.lowered_by,
            lowered_at: row.lowered_at?.toISOString() ?? null,
          },
    database: { in_recovery: row.in_recovery, read_only: row.in_recovery || row.read_only_configured },
  };
}

/** What raising or lowering the fence answers (CLI and operator endpoint). */
export type FenceChange = z.infer<typeof FenceChangeSchema>;

export function createServingFence(read: () => Promise<FenceReading>, options: ServingFenceOptions): ServingFence {
  const now = options.now ?? Date.now;
  let cached: { state: ServingState; readAt: number } | null = null;
  let reading: Promise<ServingState> | null = null;
  let databaseSince: string | null = null;

  async function readNow(): Promise<ServingState> {
    const startedAt = now();
    try {
      const row = await read();
      const readOnly = !row.fenced && (row.in_recovery || row.read_only_configured);
      databaseSince = readOnly ? (databaseSince ?? new Date(startedAt).toISOString()) : null;
      const state = servingStateOf(row, options.retryAfterSeconds, databaseSince ?? '');
      // Valid from when the read began, so the state is never acted on for longer than the limit.
      cached = { state, readAt: startedAt };
      return state;
    } catch {
      return OPEN;
    }
  }

  const fence: ServingFence = {
    async current() {
      if (cached && now() - cached.readAt < FENCE_MAX_AGE_MS) return cached.state;
      reading ??= readNow().finally(() => {
        reading = null;
      });
      return reading;
    },
    async refuseWhileFenced() {
      const state = await fence.current();
      if (state.writes === 'fenced') throw fencedError(state, options.retryAfterSeconds);
    },
    invalidate() {
      cached = null;
    },
  };
  return fence;
}
