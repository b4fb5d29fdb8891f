/**
 * A mixed write workload for fault tests, and the check that what the
 * service acknowledged is in the database exactly once. Every write carries
 * a unique marker in one text field, so the record it made can be found (and
 * counted) without trusting the receipt.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Agent } from './client.ts';
import { type Acknowledged, type AnswerLog, type RetryOptions, writeUntilAcknowledged } from './retrying-client.ts';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Kind =
  | 'create_problem'
  | 'create_solution'
  | 'edit_problem'
  | 'report_outcome'
  | 'create_discussion'
  | 'reply';

export interface Write {
  kind: Kind;
  method: 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  marker: string;
  /** For edits: the revision the edit must create. */
  revision?: number;
}

export interface AcknowledgedWrite extends Acknowledged {
  identityId: string;
  write: Write;
}

/** One agent's sequence of writes; the next write depends on what was acknowledged. */
class AgentScript {
  private readonly problems = new Map<string, number>();
  private readonly solutions: string[] = [];
  private readonly discussions: string[] = [];
  private readonly random: () => number;

  constructor(random: () => number) {
    this.random = random;
  }

  private pick<T>(items: T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  next(): Write {
    // Letters only: duplicates are refused on normalized text, which folds a
    // UUID (or any hex id) to one token, so UUID markers made every solution
    // on a problem a copy of the first (409 duplicate_solution).
    const marker = `m-${randomUUID()
      .replace(/-/g, '')
      .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
    const r = this.random();
    const problems = [...this.problems.keys()];
    if (problems.length && r < 0.25) {
      return {
        kind: 'create_solution',
        method: 'POST',
        path: '/api/solutions',
        marker,
        body: { problem_id: this.pick(problems), body: marker },
      };
    }
    if (problems.length && r < 0.4) {
      const id = this.pick(problems);
      const base = this.problems.get(id)!;
      return {
        kind: 'edit_problem',
        method: 'PATCH',
        path: `/api/problems/${id}`,
        marker,
        revision: base + 1,
        body: { base_revision: base, body: marker },
      };
    }
    if (this.solutions.length && r < 0.5) {
      return {
        kind: 'report_outcome',
        method: 'POST',
        path: `/api/solutions/${this.pick(this.solutions)}/outcomes`,
        marker,
        body: { signal: this.pick(['worked', 'partially_worked', 'did_not_work']), note: marker },
      };
    }
    if (this.discussions.length && r < 0.6) {
      return {
        kind: 'reply',
        method: 'POST',
        path: `/api/discussions/${this.pick(this.discussions)}/replies`,
        marker,
        body: { body: marker },
      };
    }
    if (r < 0.65) {
      return {
        kind: 'create_discussion',
        method: 'POST',
        path: '/api/discussions',
        marker,
        body: { title: `Discussion ${marker}`, body: marker },
      };
    }
    return {
      kind: 'create_problem',
      method: 'POST',
      path: '/api/problems',
      marker,
      body: { title: `Problem ${marker}`, body: marker, product: 'fault-tests' },
    };
  }

  acknowledged(write: Write, ack: Acknowledged): void {
    const id = ack.receipt.resource.id;
    if (write.kind === 'create_problem') this.problems.set(id, 1);
    if (write.kind === 'edit_problem') this.problems.set(id, ack.receipt.resource.revision!);
    if (write.kind === 'create_solution') this.solutions.push(id);
    if (write.kind === 'create_discussion') this.discussions.push(id);
  }
}

export interface WorkloadOptions extends RetryOptions {
  /** Shared budget: agents stop taking writes when it is spent. */
  budget: { left: number };
  seed: number;
  /** Called after each receipt, before the agent's next write (e.g. to read it back). */
  onAcknowledged?: (ack: AcknowledgedWrite) => Promise<void>;
}

/** Runs writes for one agent until the shared budget is spent; every write is retried until acknowledged. */
export async function runAgent(
  base: string,
  agent: Agent,
  log: AnswerLog,
  options: WorkloadOptions,
): Promise<AcknowledgedWrite[]> {
  const script = new AgentScript(seededRandom(options.seed));
  const acks: AcknowledgedWrite[] = [];
  while (options.budget.left > 0) {
    options.budget.left--;
    const write = script.next();
    const key = `faults:${randomUUID()}`;
    const ack = await writeUntilAcknowledged(base, agent, write.method, write.path, write.body, key, log, options);
    script.acknowledged(write, ack);
    const acknowledged = { ...ack, identityId: agent.id, write };
    acks.push(acknowledged);
    await options.onAcknowledged?.(acknowledged);
  }
  return acks;
}

/** Where each kind's marker lands, and the id the receipt must name. */
const FIND: Record<Kind, string> = {
  create_problem: 'SELECT problem_id AS id, revision FROM problem_revisions WHERE body = $1::text',
  edit_problem: 'SELECT problem_id AS id, revision FROM problem_revisions WHERE body = $1::text',
  create_solution: 'SELECT solution_id AS id, revision FROM solution_revisions WHERE body = $1::text',
  report_outcome: 'SELECT id, NULL::int AS revision FROM outcomes WHERE note = $1::text',
  create_discussion: 'SELECT id, NULL::int AS revision FROM discussions WHERE body = $1::text',
  reply: 'SELECT id, NULL::int AS revision FROM replies WHERE body = $1::text',
};

export interface LedgerCheck {
  acknowledged: number;
  /** Acknowledged writes whose record is not there exactly once, as the receipt says. */
  problems: string[];
}

/** Every acknowledged write's record exists exactly once, with the id (and revision) of its receipt. */
export async function checkAcknowledged(pool: pg.Pool, acks: AcknowledgedWrite[]): Promise<LedgerCheck> {
  const problems: string[] = [];
  for (const ack of acks) {
    const { rows } = await pool.query<{ id: string; revision: number | null }>(FIND[ack.write.kind], [
      ack.write.marker,
    ]);
    const { id, revision } = ack.receipt.resource;
    if (rows.length !== 1) {
      problems.push(`${ack.write.kind} ${ack.key}: ${rows.length} records`);
    } else if (rows[0]!.id !== id || (ack.write.kind === 'edit_problem' && rows[0]!.revision !== revision)) {
      problems.push(
        `${ack.write.kind} ${ack.key}: receipt names ${id}@${revision}, the database ${rows[0]!.id}@${rows[0]!.revision}`,
      );
    }
  }
  return { acknowledged: acks.length, problems };
}
