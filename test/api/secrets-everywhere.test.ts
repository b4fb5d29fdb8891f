/**
 * Nothing secret is ever published: every shape of the corpus, written into
 * every text field of every operation over the real API, worker, PostgreSQL
 * and Redis, is absent from the stored rows, the JSON, HTML and Markdown
 * projections, search answers and the logs; ordinary error lines are
 * stored and shown exactly as sent.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, eventually, newKey, send, type Agent } from '../helpers/client.ts';
import { redactText } from '../../core/redact-secrets.ts';
import { leaks, ordinaryLines, secretCases, type SecretCase } from '../helpers/secret-corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const CASES = secretCases();
const ORDINARY = ordinaryLines();

let stack: Stack;
let author: Agent;
/** A second agent: reports outcomes and feedback on the author's records, and edits its profile. */
let reader: Agent;

beforeAll(async () => {
  stack = await startStack({ WRITE_RATE_LIMIT: '100000', READ_RATE_LIMIT: '100000' }, { captureLogs: true });
  author = await admit(stack.base);
  reader = await admit(stack.base);
});
afterAll(() => stack?.close());

/** Runs `work` over `items`, a few at a time. */
async function each<T>(items: readonly T[], work: (item: T, i: number) => Promise<void>, lanes = 4): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i]!, i);
    }),
  );
}

/** Case texts packed into pieces of at most `limit` characters (each case whole, in one piece). */
function packed(cases: readonly SecretCase[], limit: number, separator = '\n\n'): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const c of cases) {
    if (!fits(c.text, limit)) continue;
    if (piece && !fits(`${piece}${separator}${c.text}`, limit)) {
      pieces.push(piece);
      piece = '';
    }
    piece = piece ? `${piece}${separator}${c.text}` : c.text;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** A write as a careful client sends it: on a retryable answer (a busy machine's commit_pending), again with the same key. */
async function write(method: string, p: string, body: unknown, agent = author) {
  const key = newKey();
  for (let attempt = 0; ; attempt++) {
    // A reset connection (a keep-alive socket the server closed) is retried with the same key too: it cannot apply twice.
    const res = await send(stack.base, agent, method, p, body, { key }).catch((error: unknown) => {
      if (attempt >= 5) throw error;
      return { status: 0, headers: new Headers(), body: { error: { retryable: true, retry_after: 0.5 } } };
    });
    if (res.status === 201 || (res.status === 200 && res.body?.replayed))
      return res.body as { resource: { id: string }; redacted: string[] };
    if (!res.body?.error?.retryable || attempt >= 20) {
      throw new Error(`${method} ${p} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    await new Promise((r) => setTimeout(r, (res.body.error.retry_after ?? 1) * 1000));
  }
}

async function get(p: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(stack.base + p);
      return res.status === 200 ? await res.text() : '';
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Every published or stored byte: projection files (compressed ones unpacked), contribution tables, search documents, logs. */
async function everything(): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else {
        // A temporary file renamed into place between the listing and the read is read under its final name.
        const raw = await readFile(full).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        });
        if (raw === null) continue;
        parts.push(
          full.endsWith('.gz')
            ? gunzipSync(raw).toString()
            : full.endsWith('.br')
              ? brotliDecompressSync(raw).toString()
              : raw.toString(),
        );
      }
    }
  };
  await walk(stack.config.PROJECTIONS_DIR);
  for (const table of [
    'problem_revisions',
    'solution_revisions',
    'outcomes',
    'discussions',
    'replies',
    'feedback_reports',
    'identities',
    'operations',
    'search_documents',
    'record_trust',
  ]) {
    const rows = await stack.pool.query(
      `SELECT coalesce(string_agg(row_to_json(t)::text, E'\\n'), '') AS all FROM ${table} t`,
    );
    parts.push(rows.rows[0].all);
  }
  parts.push(stack.logs.join('\n'));
  return parts.join('\n');
}

/** Whether a text fits a field of `limit` characters, as sent and once its secrets are markers (a longer result is refused). */
const fits = (text: string, limit: number) => text.length <= limit && redactText(text).value.length <= limit;

/** The shapes that fit a field of `limit` characters. */
const fitting = (limit: number) => CASES.filter((c) => fits(c.text, limit));

/**
 * The corpus in groups whose texts, joined by a space, fit a title (200
 * characters); a longer shape is a group of its own. One problem and one
 * discussion per group, so every shape that fits a title is in one.
 */
const GROUPS: SecretCase[][] = (() => {
  const groups: SecretCase[][] = [];
  let current: SecretCase[] = [];
  const joined = (g: SecretCase[]) => g.map((c) => c.text).join(' ');
  for (const c of CASES) {
    if (!fits(c.text, 200)) {
      groups.push([c]);
      continue;
    }
    if (current.length && !fits(joined([...current, c]), 200)) {
      groups.push(current);
      current = [];
    }
    current.push(c);
  }
  if (current.length) groups.push(current);
  return groups;
})();

describe('every secret shape, in every field of every operation', () => {
  const problems: string[] = [];
  let lastDiscussion = '';

  it('problems carrying the shapes in their titles, bodies, error literals, environment keys and values, and tags store none of them', async () => {
    await each(GROUPS, async (group, j) => {
      const text = group.map((c) => c.text).join(' ');
      const short = group.filter((c) => fits(c.text, 100));
      const environment: Record<string, string> = {
        os: 'linux',
        ...Object.fromEntries(short.map((c) => [c.text, 'set'])),
      };
      if (fits(text, 500)) environment.pasted = text;
      const tags = group
        .filter((c) => fits(c.text, 40))
        .map((c) => c.text)
        .slice(0, 9);
      const receipt = await write('POST', '/api/problems', {
        title: fits(text, 200) ? text.padEnd(5, '.') : `Problem with a long shape ${j}`,
        body: `Pasted while debugging:\n\n${text}`,
        product: `corpus-${j}`,
        error_literal: text,
        environment,
        tags: ['corpus', ...tags],
      });
      const expected = [
        fits(text, 200) ? 'title' : null,
        'body',
        'error_literal',
        fits(text, 500) || short.length ? 'environment' : null,
        tags.length ? 'tags' : null,
      ];
      expect(receipt.redacted, text).toEqual(expected.filter(Boolean));
      problems[j] = receipt.resource.id;
    });
    expect(problems.filter(Boolean)).toHaveLength(GROUPS.length);
  }, 900_000);

  it('solutions, outcomes, discussions, replies, profiles and feedback hold every shape that fits them, redacted', async () => {
    const bodies = packed(CASES, 20_000);
    const fourK = packed(CASES, 4000);
    const solutions: string[] = [];
    await each(fourK, async (piece, j) => {
      const receipt = await write('POST', '/api/solutions', {
        problem_id: problems[j]!,
        body: bodies[j % bodies.length]!,
        applicability: piece,
        limitations: piece,
      });
      expect(receipt.redacted).toEqual(['body', 'applicability', 'limitations']);
      solutions[j] = receipt.resource.id;
    });
    const envValues = fitting(500);
    await each(fourK, async (piece, j) => {
      const env = Object.fromEntries(envValues.slice(j * 20, j * 20 + 20).map((c, k) => [`v${k}`, c.text]));
      const receipt = await write(
        'POST',
        `/api/solutions/${solutions[j]}/outcomes`,
        { signal: 'worked', note: piece, environment: env },
        reader,
      );
      expect(receipt.redacted).toEqual(Object.keys(env).length ? ['note', 'environment'] : ['note']);
    });
    // Environment values beyond the outcomes above, twenty a write.
    for (let start = fourK.length * 20; start < envValues.length; start += 20) {
      const env = Object.fromEntries(envValues.slice(start, start + 20).map((c, k) => [`v${k}`, c.text]));
      await write(
        'POST',
        `/api/solutions/${solutions[0]}/outcomes`,
        { signal: 'partially_worked', environment: env },
        reader,
      );
    }
    const discussions: string[] = [];
    await each(GROUPS, async (group, j) => {
      const text = group.map((c) => c.text).join(' ');
      const receipt = await write('POST', '/api/discussions', {
        title: fits(text, 200) ? text.padEnd(5, '.') : `Discussion of a long shape ${j}`,
        body: text,
        product: `corpus-${j}`,
      });
      expect(receipt.redacted, text).toEqual(fits(text, 200) ? ['title', 'body'] : ['body']);
      discussions[j] = receipt.resource.id;
    });
    lastDiscussion = discussions.at(-1)!;
    await each(bodies, async (piece, j) => {
      expect((await write('POST', `/api/discussions/${discussions[j]}/replies`, { body: piece })).redacted).toEqual([
        'body',
      ]);
    });
    // Profiles: the other agent's display name and bio, one write each.
    const bios = packed(CASES, 1000);
    await each(packed(CASES, 80, ' '), async (names) => {
      expect((await write('PATCH', '/api/profile', { display_name: names }, reader)).redacted, names).toEqual([
        'display_name',
      ]);
    });
    await each(bios, async (piece) => {
      expect((await write('PATCH', '/api/profile', { bio: piece }, reader)).redacted).toEqual(['bio']);
    });
    const evidence = packed(CASES, 2000);
    await each(fourK, async (piece, j) => {
      const receipt = await write(
        'POST',
        '/api/feedback-reports',
        {
          kind: 'feedback',
          target: { type: 'problem', id: problems[j]! },
          body: piece,
          evidence: evidence.slice(j * 10, j * 10 + 10),
        },
        reader,
      );
      expect(receipt.redacted).toEqual(evidence.slice(j * 10, j * 10 + 10).length ? ['body', 'evidence'] : ['body']);
    });
    for (let start = fourK.length * 10; start < evidence.length; start += 10) {
      await write(
        'POST',
        '/api/feedback-reports',
        {
          kind: 'feedback',
          target: { type: 'problem', id: problems[0]! },
          body: 'more evidence',
          evidence: evidence.slice(start, start + 10),
        },
        reader,
      );
    }
  }, 600_000);

  it('no shape, nor any 8 characters of one, is in the projections, the database, the search documents or the logs', async () => {
    // Renders are asynchronous: wait for the last problem's and discussion's projections, then for the render queue to drain.
    await eventually(async () => (await get(`/problems/${problems.at(-1)}.json`)) !== '', 300_000);
    expect(lastDiscussion).not.toBe('');
    await eventually(async () => (await get(`/discussions/${lastDiscussion}.json`)) !== '', 300_000);
    const all = await everything();
    const leaked = CASES.map((c) => [c.shape, leaks(c, all)] as const).filter(([, piece]) => piece !== null);
    expect(leaked).toEqual([]);
  }, 900_000);

  it("each problem's JSON, HTML and Markdown projections show the marker in place of its shape", async () => {
    await each(GROUPS, async (group, j) => {
      const id = problems[j]!;
      const json = await eventually(async () => (await get(`/problems/${id}.json`)) || null, 60_000);
      const html = await get(`/problems/${id}`);
      const md = await get(`/problems/${id}.md`);
      for (const [what, text] of [
        ['json', json],
        ['html', html],
        ['markdown', md],
      ] as const) {
        for (const c of group) expect(leaks(c, text), `${c.shape} in ${what}`).toBeNull();
        expect(text, `problem ${j} ${what}`).toMatch(/redacted:[a-z0-9-]+/);
      }
    });
  }, 300_000);

  it('search answers for each pasted shape find the record by its marker and never echo the shape', async () => {
    let found = 0;
    await each(CASES, async (c) => {
      const answer = await get(`/api/v1/search?q=${encodeURIComponent(c.text.slice(0, 500))}`);
      expect(leaks(c, answer), `${c.shape} in a search answer`).toBeNull();
      if (answer && (JSON.parse(answer).items ?? []).length > 0) found++;
    });
    // Two cases of one kind redact to one text; what matters is that a pasted secret still finds its record.
    expect(found).toBeGreaterThanOrEqual(CASES.length * 0.9);
  }, 300_000);
});

describe('ordinary error lines', () => {
  it('are stored, projected and searched exactly as sent, with an empty redacted list', async () => {
    const ids: string[] = [];
    await each(ORDINARY, async (line, i) => {
      const receipt = await write('POST', '/api/problems', {
        title: `Ordinary line ${i}`,
        body: line,
        product: `ordinary-${i}`,
        error_literal: line,
        environment: { pasted: line.slice(0, 500) },
      });
      expect(receipt.redacted, line).toEqual([]);
      ids[i] = receipt.resource.id;
    });
    await each(ORDINARY, async (line, i) => {
      const json = JSON.parse(await eventually(async () => (await get(`/problems/${ids[i]}.json`)) || null, 60_000));
      expect(json.error_literal, line).toBe(line);
      expect(json.body, line).toBe(line);
      expect(json.environment.pasted, line).toBe(line.slice(0, 500));
    });
  }, 600_000);
});
