import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHashOf } from '../../core/idempotency.ts';
import { loadHtmlRenderer } from '../../projections/html.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { commitOperation } from '../../worker/jobs/commit.ts';
import { rebuildAll } from '../../worker/jobs/rebuild.ts';
import { renderPendingChanges } from '../../worker/jobs/render.ts';
import { admit, errorOf, eventually, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack({ COMMIT_TIMEOUT_MS: '1500' }, { worker: false });
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

const projectionPath = (file: string) => path.join(stack.config.PROJECTIONS_DIR, file);
const exists = (file: string) =>
  readFile(projectionPath(file)).then(
    () => true,
    () => false,
  );

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of ['problems', 'solutions', 'discussions', 'agents']) {
    for (const name of await readdir(path.join(dir, folder)).catch(() => [] as string[])) out.push(`${folder}/${name}`);
  }
  return out.sort();
}

/** Commits a new problem the way a commit job does, and nothing more: no render runs, no render job is queued. */
async function commitOnly(title: string): Promise<string> {
  const body = problemBody({ title });
  const result = await commitOperation(stack.pool, {
    operation: 'create_problem',
    identityId: agent.id,
    credentialId: agent.credentialId,
    scopes: ['knowledge'],
    idempotencyKey: newKey(),
    requestHash: requestHashOf('create_problem', undefined, body),
    requestId: 'req_test',
    body,
    redacted: [],
  });
  if (!result.ok) throw new Error('commit failed');
  return result.receipt.resource.id;
}

describe('a write while no worker runs', () => {
  it('answers 503 with Retry-After, then the retry with the same key gets the receipt once a worker runs', async () => {
    const key = newKey();
    const body = problemBody({ title: 'Queued while the worker was down' });
    const first = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(errorOf(first.body)).toMatchObject({
      code: 'temporarily_unavailable',
      reason: 'commit_pending',
      retryable: true,
    });
    expect((await stack.pool.query('SELECT count(*) FROM problems')).rows[0].count).toBe('0');

    await stack.startWorker();
    const retry = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'committed', replayed: true, operation: 'create_problem' });
    expect((await stack.pool.query('SELECT count(*) FROM problems')).rows[0].count).toBe('1');
    const id = retry.body.resource.id;
    await eventually(() => exists(`problems/${id}.html`));
    await stack.stopWorker();
  });
});

describe('a worker killed between commit and render', () => {
  it('renders the committed change when a worker starts again', async () => {
    // commitOperation alone is exactly what survives such a kill: the
    // transaction committed, no render ran and no render job was queued.
    const id = await commitOnly('Committed, never rendered');
    expect(await countUnrenderedChanges(stack.pool)).toBeGreaterThan(0);
    expect(await exists(`problems/${id}.json`)).toBe(false);

    await stack.startWorker();
    await eventually(() => exists(`problems/${id}.json`));
    const json = JSON.parse(await readFile(projectionPath(`problems/${id}.json`), 'utf8'));
    expect(json.title).toBe('Committed, never rendered');
    expect(await countUnrenderedChanges(stack.pool)).toBe(0);
  });
});

describe('a render pass while writes keep coming', () => {
  it('renders what was unrendered when it began and stops; the next pass renders the rest', async () => {
    if (stack.worker) await stack.stopWorker();
    // A full batch and one more, so the pass goes on to a second batch, where a pass that chased new changes would find it.
    const before: string[] = [];
    for (let i = 0; i <= 100; i++) before.push(await commitOnly(`Committed before the pass ${i}`));
    const html = await loadHtmlRenderer(stack.config.ASTRO_ENTRY);
    let during: string | null = null;
    // Each batch is noted once written: a write commits right then, as one would under load.
    const first = await renderPendingChanges(stack.pool, html, stack.config.PROJECTIONS_DIR, undefined, async () => {
      during ??= await commitOnly('Committed during the pass');
    });
    expect(during).not.toBeNull();
    expect(first.changes).toBe(before.length);
    for (const id of before) expect(await exists(`problems/${id}.json`), id).toBe(true);
    expect(await exists(`problems/${during}.json`)).toBe(false);
    expect(await countUnrenderedChanges(stack.pool)).toBe(1);

    const second = await renderPendingChanges(stack.pool, html, stack.config.PROJECTIONS_DIR);
    expect(second.changes).toBe(1);
    expect(await exists(`problems/${during}.json`)).toBe(true);
    expect(await countUnrenderedChanges(stack.pool)).toBe(0);
  });
});

describe('full rebuild', () => {
  it('produces byte-identical files to the incremental renders, and rewrites nothing when current', async () => {
    if (!stack.worker) await stack.startWorker();
    const p = await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: 'Rebuild me please' }));
    const s = await send(stack.base, agent, 'POST', '/api/solutions', {
      problem_id: p.body.resource.id,
      body: 'Do the thing',
    });
    await send(stack.base, agent, 'POST', `/api/solutions/${s.body.resource.id}/outcomes`, {
      signal: 'partially_worked',
    });
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await eventually(async () =>
      (await readFile(projectionPath(`solutions/${s.body.resource.id}.json`), 'utf8').catch(() => '')).includes(
        '"partially_worked": 1',
      ),
    );

    const fresh = await mkdtemp(path.join(tmpdir(), 'ak-rebuild-'));
    const html = await loadHtmlRenderer(stack.config.ASTRO_ENTRY);
    try {
      const counts = await rebuildAll(stack.pool, html, fresh);
      const incremental = await listFiles(stack.config.PROJECTIONS_DIR);
      expect(await listFiles(fresh)).toEqual(incremental);
      // Each projection is counted once; its .gz sibling is compared byte for byte too. No .br: the service makes Brotli in memory.
      const projections = incremental.filter((f) => !f.endsWith('.gz'));
      expect(projections.length * 2).toBe(incremental.length);
      expect(incremental.filter((f) => f.endsWith('.br'))).toEqual([]);
      expect(counts.written).toBe(projections.length);
      for (const file of incremental) {
        const a = await readFile(path.join(fresh, file));
        const b = await readFile(projectionPath(file));
        expect(a.equals(b), file).toBe(true);
        // The same stamp, so nginx and the API give the file the same ETag whichever way it was written.
        expect((await stat(path.join(fresh, file))).mtimeMs, file).toBe((await stat(projectionPath(file))).mtimeMs);
      }
      // The empty directory was built in a staging folder and renamed into place: nothing of it is left.
      expect((await readdir(fresh)).filter((name) => name.startsWith('.rebuild-'))).toEqual([]);
      const again = await rebuildAll(stack.pool, html, stack.config.PROJECTIONS_DIR);
      expect(again).toMatchObject({ written: 0, removed: 0, unchanged: projections.length });
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('removes projections of records that no longer exist', async () => {
    const orphan = 'problems/prb_0000000000000000000000000z';
    for (const ext of ['.html', '.json', '.md']) await writeFile(projectionPath(orphan + ext), 'stale');
    const html = await loadHtmlRenderer(stack.config.ASTRO_ENTRY);
    const counts = await rebuildAll(stack.pool, html, stack.config.PROJECTIONS_DIR);
    expect(counts.removed).toBe(3);
    expect(await exists(`${orphan}.json`)).toBe(false);
  });
});
