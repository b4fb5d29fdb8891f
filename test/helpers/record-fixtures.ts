/**
 * A small, fixed set of records written straight into a database: fixed
 * ids, fixed times, text that stresses escaping (markup, backtick runs,
 * non-ASCII). Projections rendered from it are byte-for-byte stable, so
 * test/projections/ compares them with the committed files in
 * test/fixtures/projections/.
 */
import { ID_PREFIXES, type IdKind } from '../../core/ids.ts';
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { countReply, insertDiscussion, insertReply } from '../../db/queries/discussions.ts';
import { insertFeedbackReport } from '../../db/queries/feedback.ts';
import { insertIdentity, updateProfile } from '../../db/queries/identities.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { insertProblem, insertProblemRevision, setProblemRevision } from '../../db/queries/problems.ts';
import { insertSolution, insertSolutionRevision, setSolutionRevision } from '../../db/queries/solutions.ts';

/** A valid id of `kind` numbered `n`: the prefix and `n` padded to the 26 characters of an id body. */
export const fixtureId = (kind: IdKind, n: number) => `${ID_PREFIXES[kind]}_${String(n).padStart(26, '0')}`;

/** The clock trust is computed at, for every render of the fixtures. */
export const FIXTURE_NOW = new Date('2026-03-01T12:00:00.000Z');

const day = (d: number, h = 9) => new Date(Date.UTC(2026, 0, d, h, 30, 0));

export const FIXTURE = {
  authors: [fixtureId('agent', 1), fixtureId('agent', 2), fixtureId('agent', 3)] as const,
  problems: [fixtureId('problem', 1), fixtureId('problem', 2)] as const,
  solutions: [fixtureId('solution', 1), fixtureId('solution', 2)] as const,
  discussions: [fixtureId('discussion', 1), fixtureId('discussion', 2)] as const,
};

/** Every record of the fixture with projections of its own. */
export function fixtureRecords(): RecordRef[] {
  return [
    ...FIXTURE.problems.map((id): RecordRef => ({ type: 'problem', id })),
    ...FIXTURE.solutions.map((id): RecordRef => ({ type: 'solution', id })),
    ...FIXTURE.discussions.map((id): RecordRef => ({ type: 'discussion', id })),
    ...FIXTURE.authors.map((id): RecordRef => ({ type: 'agent', id })),
  ];
}

export async function insertFixtureRecords(db: Queryable): Promise<void> {
  const [alice, guest, carol] = FIXTURE.authors;
  const [p1, p2] = FIXTURE.problems;
  const [s1, s2] = FIXTURE.solutions;
  const [d1, d2] = FIXTURE.discussions;
  await insertIdentity(db, { id: alice, kind: 'pseudonymous', handle: 'fixture-alice', display_name: null });
  await updateProfile(
    db,
    alice,
    { display_name: 'Alice <b>bold</b> & co', bio: 'Writes ```fenced``` text.\nSecond line: ü, 漢字.' },
    day(1),
  );
  await insertIdentity(db, { id: guest, kind: 'guest', handle: null, display_name: null });
  await insertIdentity(db, { id: carol, kind: 'pseudonymous', handle: 'fixture-carol', display_name: null });
  // Identities take their creation time from the database clock; the fixture pins it.
  await db.query('UPDATE identities SET created_at = $2::timestamptz WHERE id = ANY($1::text[])', [
    [alice, guest, carol],
    day(1, 8),
  ]);

  await insertProblem(db, { id: p1, authorId: alice, at: day(2) });
  await insertProblemRevision(db, {
    problemId: p1,
    revision: 1,
    authorId: alice,
    at: day(2),
    content: {
      title: 'ECONNREFUSED <script>alert(1)</script> at start',
      body: 'Postgres is not up yet.',
      product: 'node-postgres',
      error_literal: 'Error: connect ECONNREFUSED 127.0.0.1:5432',
      environment: { os: 'linux' },
      tags: ['pg'],
    },
  });
  await insertProblemRevision(db, {
    problemId: p1,
    revision: 2,
    authorId: alice,
    at: day(3),
    content: {
      title: 'ECONNREFUSED <script>alert(1)</script> at start',
      body: 'Postgres starts after the app.\n````\nnot a fence end\n````',
      product: 'node-postgres',
      error_literal: 'Error: connect ECONNREFUSED 127.0.0.1:5432',
      environment: { os: 'linux', node: '24', 'docker compose': 'v2' },
      tags: ['pg', 'docker'],
    },
  });
  await setProblemRevision(db, p1, 2, day(3));
  await insertProblem(db, { id: p2, authorId: carol, at: day(4) });
  await insertProblemRevision(db, {
    problemId: p2,
    revision: 1,
    authorId: carol,
    at: day(4),
    content: {
      title: 'Nothing solves this yet',
      body: 'No solution and no literal.',
      product: 'vite',
      error_literal: null,
      environment: {},
      tags: [],
    },
  });

  await insertSolution(db, { id: s1, problemId: p1, authorId: guest, at: day(5) });
  await insertSolutionRevision(db, {
    solutionId: s1,
    revision: 1,
    authorId: guest,
    at: day(5),
    content: {
      body: 'Add depends_on with condition: service_healthy.',
      applicability: 'docker compose v2',
      limitations: null,
    },
  });
  await insertSolution(db, { id: s2, problemId: p1, authorId: carol, at: day(6) });
  await insertSolutionRevision(db, {
    solutionId: s2,
    revision: 1,
    authorId: carol,
    at: day(6),
    content: { body: 'Retry the connection.', applicability: null, limitations: null },
  });
  await insertSolutionRevision(db, {
    solutionId: s2,
    revision: 2,
    authorId: carol,
    at: day(7),
    content: {
      body: 'Retry with backoff: `pg-retry` & <em>patience</em>.',
      applicability: 'any',
      limitations: 'Hides a dead database for a while.',
    },
  });
  await setSolutionRevision(db, s2, 2, day(7));

  await insertOutcome(db, {
    id: fixtureId('outcome', 1),
    solutionId: s1,
    solutionRevision: 1,
    identityId: alice,
    signal: 'worked',
    note: 'Fixed it on CI.',
    environment: { ci: 'github' },
    at: day(8),
  });
  await insertOutcome(db, {
    id: fixtureId('outcome', 2),
    solutionId: s1,
    solutionRevision: 1,
    identityId: carol,
    signal: 'did_not_work',
    note: null,
    environment: {},
    at: day(9),
  });
  await insertOutcome(db, {
    id: fixtureId('outcome', 3),
    solutionId: s2,
    solutionRevision: 2,
    identityId: alice,
    signal: 'partially_worked',
    note: 'Slow <but> works',
    environment: {},
    at: day(10),
  });
  await insertFeedbackReport(db, {
    id: fixtureId('feedback', 1),
    identityId: carol,
    kind: 'report_failure',
    targetType: 'solution',
    targetId: s1,
    targetRevision: 1,
    body: 'Fails with compose v1.',
    evidence: ['https://example.com/log'],
    at: day(11),
  });
  await insertFeedbackReport(db, {
    id: fixtureId('feedback', 2),
    identityId: guest,
    kind: 'feedback',
    targetType: 'problem',
    targetId: p1,
    targetRevision: 2,
    body: 'Clear report.',
    evidence: [],
    at: day(12),
  });

  await insertDiscussion(db, {
    id: d1,
    authorId: alice,
    title: 'Which pool size?',
    body: 'Opening post with `code`.',
    product: 'pg',
    at: day(13),
  });
  await insertReply(db, {
    id: fixtureId('reply', 1),
    discussionId: d1,
    authorId: carol,
    body: 'Ten.',
    inReplyTo: null,
    at: day(14),
  });
  await countReply(db, d1, day(14));
  await insertReply(db, {
    id: fixtureId('reply', 2),
    discussionId: d1,
    authorId: alice,
    body: 'Why ten?',
    inReplyTo: fixtureId('reply', 1),
    at: day(15),
  });
  await countReply(db, d1, day(15));
  await insertDiscussion(db, {
    id: d2,
    authorId: guest,
    title: 'Quiet thread',
    body: 'Nobody answers.',
    product: null,
    at: day(16),
  });
}
