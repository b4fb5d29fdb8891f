import type { Signal } from '../../core/schemas/fields.ts';
import type { FeedbackEvidence } from '../../core/schemas/trust.ts';
import type { TrustSummary } from '../../core/trust/assess.ts';
import { COUNTER_FEEDBACK_KINDS, TRUST_RULES, type CounterFeedbackKind } from '../../core/trust/rules.ts';
import type { RevisionReports, TrustSubject } from '../../core/trust/subject.ts';
import { queryPrepared, type Queryable } from '../pool.ts';

export type TrustRecordType = TrustSubject['type'];

/**
 * Records an identity's admission: the keyed hash of its client address
 * (never the address) and the group it joins. An admission less than
 * `windowSeconds` after the latest one from the same address joins that
 * one's group (so a slow drip chains into one group too); otherwise the
 * identity is its own group. Hashes older than the window can no longer be
 * joined and are cleared. Call inside the admission transaction.
 */
export async function recordAdmission(
  db: Queryable,
  a: { identityId: string; addressKey: string; at: Date; windowSeconds: number },
): Promise<string> {
  const hashed = await db.query<{ hash: string }>(
    `SELECT encode(sha256(convert_to(s.salt || $1::text, 'UTF8')), 'hex') AS hash,
            pg_advisory_xact_lock(hashtextextended(s.salt || $1::text, 8150013)) AS locked
       FROM admission_address_salt s LIMIT 1`,
    [a.addressKey],
  );
  // The lock above orders admissions from one address, so this sees the previous one.
  const inserted = await db.query<{ confirmer_group: string }>(
    `INSERT INTO identity_admissions (identity_id, confirmer_group, address_hash, admitted_at)
     VALUES ($1::text, coalesce((
       SELECT confirmer_group FROM identity_admissions
        WHERE address_hash = $2::text AND admitted_at > $3::timestamptz - make_interval(secs => $4::int)
        ORDER BY admitted_at DESC LIMIT 1), $1::text), $2::text, $3::timestamptz)
     RETURNING confirmer_group`,
    [a.identityId, hashed.rows[0]!.hash, a.at, a.windowSeconds],
  );
  await db.query(
    `UPDATE identity_admissions SET address_hash = NULL
      WHERE address_hash IS NOT NULL AND admitted_at < $1::timestamptz - make_interval(secs => $2::int)`,
    [a.at, a.windowSeconds],
  );
  return inserted.rows[0]!.confirmer_group;
}

const HEADS: Record<TrustRecordType, string> = {
  problem: 'problems',
  solution: 'solutions',
};

/** Every report behind the trust of these records, grouped by revision. */
export async function loadTrustSubjects(
  db: Queryable,
  type: TrustRecordType,
  ids: string[],
): Promise<Map<string, TrustSubject>> {
  return loadTrustSubjectsOf(db, type === 'problem' ? { problem: ids, solution: [] } : { problem: [], solution: ids });
}

/** An outcome or feedback report as the statement below aggregates it (JSON: times as ISO text). */
interface ReportJson {
  revision: number | null;
  identity_id: string;
  handle: string | null;
  confirmer_group: string | null;
  note: string | null;
  at: string;
  signal?: Signal;
  environment?: Record<string, string>;
  kind?: CounterFeedbackKind;
}

/**
 * The columns of a record's trust subject, for a relation `h` (type, id, author_id, current_revision) and
 * its author's admission `a`: the author's group, each identity's latest outcome per solution revision and
 * the counter feedback of `kinds` (a text[] expression), aggregated as JSON. Shared by `loadTrustSubjectsOf`
 * and the search statement, which reads the trust of its page's first rows itself (db/queries/search.ts).
 */
export const trustSubjectColumnsSql = (kinds: string) => `h.author_id, h.current_revision, a.confirmer_group,
            -- Each identity's latest outcome per solution revision.
            (SELECT coalesce(json_agg(json_build_object(
                      'revision', o.solution_revision, 'identity_id', o.identity_id, 'handle', i.handle,
                      'confirmer_group', oa.confirmer_group, 'signal', o.signal, 'note', o.note,
                      'environment', o.environment, 'at', o.created_at) ORDER BY o.solution_revision, o.identity_id), '[]')
               FROM (SELECT DISTINCT ON (o.solution_revision, o.identity_id) o.*
                       FROM outcomes o WHERE h.type = 'solution' AND o.solution_id = h.id
                      ORDER BY o.solution_revision, o.identity_id, o.created_at DESC, o.id DESC) o
               LEFT JOIN identity_admissions oa ON oa.identity_id = o.identity_id
               LEFT JOIN identities i ON i.id = o.identity_id) AS outcomes,
            (SELECT coalesce(json_agg(json_build_object(
                      'revision', f.target_revision, 'identity_id', f.identity_id, 'handle', i.handle,
                      'confirmer_group', fa.confirmer_group, 'kind', f.kind, 'note', f.body, 'at', f.created_at)
                      ORDER BY f.created_at, f.id), '[]')
               FROM feedback_reports f
               LEFT JOIN identity_admissions fa ON fa.identity_id = f.identity_id
               LEFT JOIN identities i ON i.id = f.identity_id
              WHERE f.target_type = h.type AND f.target_id = h.id AND f.kind = ANY(${kinds})) AS feedback`;

/** A row of `trustSubjectColumnsSql`. */
export interface TrustSubjectRow {
  author_id: string;
  current_revision: number;
  confirmer_group: string | null;
  outcomes: ReportJson[];
  feedback: ReportJson[];
}

/** The reports of a `trustSubjectColumnsSql` row, grouped by revision. */
export function trustSubjectOf(type: TrustRecordType, id: string, h: TrustSubjectRow): TrustSubject {
  const byRevision = new Map<number, RevisionReports>();
  const revisionOf = (revision: number): RevisionReports => {
    let reports = byRevision.get(revision);
    if (!reports) byRevision.set(revision, (reports = { outcomes: [], feedback: [] }));
    return reports;
  };
  for (const o of h.outcomes) {
    revisionOf(o.revision!).outcomes.push({
      identityId: o.identity_id,
      handle: o.handle,
      group: o.confirmer_group,
      signal: o.signal!,
      note: o.note,
      environment: o.environment!,
      at: new Date(o.at),
    });
  }
  for (const f of h.feedback) {
    revisionOf(f.revision ?? 1).feedback.push({
      identityId: f.identity_id,
      handle: f.handle,
      group: f.confirmer_group,
      kind: f.kind!,
      note: f.note!,
      at: new Date(f.at),
    });
  }
  return {
    type,
    id,
    currentRevision: h.current_revision,
    author: { identityId: h.author_id, group: h.confirmer_group },
    byRevision,
  };
}

/**
 * The reports behind the trust of problems and solutions at once, keyed by
 * record id: one statement (one round trip, which search pays per page),
 * each record's outcomes and counter feedback aggregated beside its head.
 * `prepared`: run as a named statement (not on the embedded database,
 * whose connections share one session).
 */
export async function loadTrustSubjectsOf(
  db: Queryable,
  ids: { problem: string[]; solution: string[] },
  options: { prepared?: boolean } = {},
): Promise<Map<string, TrustSubject>> {
  const subjects = new Map<string, TrustSubject>();
  if (ids.problem.length === 0 && ids.solution.length === 0) return subjects;
  const text = `SELECT h.type, h.id, ${trustSubjectColumnsSql('$3::text[]')}
       FROM (SELECT 'problem'::text AS type, r.id, r.author_id, r.current_revision FROM problems r WHERE r.id = ANY($1::text[])
             UNION ALL
             SELECT 'solution'::text, r.id, r.author_id, r.current_revision FROM solutions r WHERE r.id = ANY($2::text[])) h
       LEFT JOIN identity_admissions a ON a.identity_id = h.author_id`;
  const values = [ids.problem, ids.solution, COUNTER_FEEDBACK_KINDS];
  // Prepared: planned once per connection (search asks for it on every page; db/queries/search.ts).
  const r = await queryPrepared<TrustSubjectRow & { type: TrustRecordType; id: string }>(
    db,
    options.prepared ? 'ak_trust_subjects' : undefined,
    text,
    values,
  );
  for (const h of r.rows) subjects.set(h.id, trustSubjectOf(h.type, h.id, h));
  return subjects;
}

export interface StoredTrust {
  revision: number;
  disputed: boolean;
  summary: TrustSummary | null;
}

/**
 * Locks a record's trust row (creating it, undisputed, when missing) and
 * returns what was stored: concurrent reports on one record recompute its
 * trust one after the other, each seeing the other's report.
 */
export async function lockRecordTrust(
  db: Queryable,
  type: TrustRecordType,
  id: string,
  at: Date,
): Promise<StoredTrust> {
  const r = await db.query<{ revision: number; disputed: boolean; summary: TrustSummary | Record<string, never> }>(
    `INSERT INTO record_trust (record_type, record_id, revision, summary, updated_at)
     VALUES ($1::text, $2::text, 1, '{}'::jsonb, $3::timestamptz)
     ON CONFLICT (record_type, record_id) DO UPDATE SET record_type = record_trust.record_type
     RETURNING revision, disputed, summary`,
    [type, id, at],
  );
  const row = r.rows[0]!;
  return {
    revision: row.revision,
    disputed: row.disputed,
    summary: 'revision' in row.summary ? (row.summary as TrustSummary) : null,
  };
}

export async function saveRecordTrust(
  db: Queryable,
  type: TrustRecordType,
  id: string,
  summary: TrustSummary,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE record_trust SET revision = $3::int, disputed = $4::boolean, bound = $5::float8,
            decay_from = $6::timestamptz, summary = $7::jsonb, updated_at = $8::timestamptz
      WHERE record_type = $1::text AND record_id = $2::text`,
    [type, id, summary.revision, summary.disputed, summary.bound, summary.decay_from, JSON.stringify(summary), at],
  );
}

/** Stored trust summaries of these records (records never assessed are absent). */
export async function findRecordTrust(
  db: Queryable,
  type: TrustRecordType,
  ids: string[],
): Promise<Map<string, TrustSummary>> {
  const r = await db.query<{ record_id: string; summary: TrustSummary }>(
    `SELECT record_id, summary FROM record_trust
      WHERE record_type = $1::text AND record_id = ANY($2::text[]) AND summary ? 'revision'`,
    [type, ids],
  );
  return new Map(r.rows.map((row) => [row.record_id, row.summary]));
}

/**
 * A record_trust row's confidence as of the statement's clock, for ranking:
 * core/trust/confidence.ts's rule (halved every half-life of whole days
 * since `decay_from`) in SQL, so search can sort every match by it.
 * test/trust/search-trust.test.ts checks both agree. 0 when never assessed.
 */
export const decayedConfidenceSql = (t: string) =>
  `coalesce(${t}.bound * power(0.5::float8, floor(greatest(0, extract(epoch FROM now() - ${t}.decay_from)) / 86400)
     / ${Number(TRUST_RULES.halfLifeDays)}::float8), 0)`;

/** Whether the search document `d` is a disputed record (record_trust). */
export const isDisputedSql = (d: string) =>
  `EXISTS (SELECT 1 FROM record_trust dt WHERE dt.record_type = ${d}.type AND dt.record_id = ${d}.id AND dt.disputed)`;

export type { FeedbackEvidence };

/**
 * Feedback on records as public evidence: per record and kind, how many
 * identities filed it and the latest report. Records without feedback map
 * to an empty list.
 */
export async function listFeedbackEvidence(
  db: Queryable,
  type: string,
  ids: string[],
): Promise<Map<string, FeedbackEvidence[]>> {
  const evidence = new Map<string, FeedbackEvidence[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return evidence;
  const r = await db.query<{
    target_id: string;
    kind: FeedbackEvidence['kind'];
    n: string;
    id: string;
    identity_id: string;
    handle: string | null;
    body: string;
    evidence: string[];
    target_revision: number | null;
    created_at: Date;
  }>(
    `SELECT counts.target_id, counts.kind, counts.n, latest.id, latest.identity_id, i.handle, latest.body, latest.evidence,
            latest.target_revision, latest.created_at
       FROM (SELECT target_id, kind, count(DISTINCT identity_id) AS n FROM feedback_reports
              WHERE target_type = $1::text AND target_id = ANY($2::text[]) GROUP BY target_id, kind) counts
       CROSS JOIN LATERAL (
         SELECT id, identity_id, body, evidence, target_revision, created_at FROM feedback_reports
          WHERE target_type = $1::text AND target_id = counts.target_id AND kind = counts.kind
          ORDER BY created_at DESC, id DESC LIMIT 1) latest
       LEFT JOIN identities i ON i.id = latest.identity_id
      ORDER BY counts.target_id, counts.kind`,
    [type, ids],
  );
  for (const row of r.rows) {
    evidence.get(row.target_id)?.push({
      kind: row.kind,
      count: Number(row.n),
      latest: {
        id: row.id,
        body: row.body,
        evidence: row.evidence,
        reporter: { id: row.identity_id, handle: row.handle },
        revision: row.target_revision,
        reported_at: row.created_at.toISOString(),
      },
    });
  }
  return evidence;
}

/** The current revision of a feedback target that has revisions (null for discussions and replies). */
export async function findTargetRevision(db: Queryable, type: string, id: string): Promise<number | null> {
  if (type !== 'problem' && type !== 'solution') return null;
  const r = await db.query<{ current_revision: number }>(
    `SELECT current_revision FROM ${HEADS[type]} WHERE id = $1::text`,
    [id],
  );
  return r.rows[0]?.current_revision ?? null;
}
