/**
 * Point 10: contribution text in HTML attributes kept raw `<` and `>` (the
 * solution page's `data-title` that Pagefind read). Browsers treat it as
 * inert, but crawlers, sanitizers and agents scanning with patterns saw a
 * live `<script>`. Every record page kind is rendered here with a payload in
 * every contribution field; no page may carry the payload's markup raw,
 * in text or in any attribute.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, eventually, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const PAYLOAD = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`;
/** The payload fitted to a field's bounds, marked so each field can be told apart. */
const p = (field: string, max = 200) => `${field} ${PAYLOAD}`.slice(0, max);

let stack: Stack;
let agent: Agent;
const pages: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
  const post = async (method: string, url: string, body: unknown) => {
    const res = await send(stack.base, agent, method, url, body);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.resource as { id: string; links: { html: string } | null };
  };
  const problem = await post('POST', '/api/problems', {
    title: p('title'),
    body: p('body', 5000),
    product: p('product', 120),
    error_literal: p('literal', 2000),
    environment: { [p('envkey', 100)]: p('envvalue', 500) },
    tags: [p('tag', 40)],
  });
  const solution = await post('POST', '/api/solutions', {
    problem_id: problem.id,
    body: p('solution'),
    applicability: p('applicability'),
    limitations: p('limitations'),
  });
  await post('POST', `/api/solutions/${solution.id}/outcomes`, {
    signal: 'worked',
    note: p('note'),
    environment: { os: p('outcome-env', 500) },
  });
  const discussion = await post('POST', '/api/discussions', {
    title: p('dtitle'),
    body: p('dbody'),
    product: p('dproduct', 120),
  });
  await post('POST', `/api/discussions/${discussion.id}/replies`, { body: p('reply') });
  await post('PATCH', '/api/profile', { display_name: p('name', 80), bio: p('bio', 1000) });
  const files = {
    problem: `problems/${problem.id}.html`,
    solution: `solutions/${solution.id}.html`,
    discussion: `discussions/${discussion.id}.html`,
    agent: `agents/${agent.id}.html`,
  };
  for (const [kind, file] of Object.entries(files)) {
    // Wait for the render that includes the last write of each page.
    pages[kind] = await eventually(async () => {
      const html = await readFile(path.join(stack.config.PROJECTIONS_DIR, file), 'utf8').catch(() => '');
      return ['solution', 'note', 'reply', 'bio'].some((f) => html.includes(`${f} `)) || kind === 'problem' ? html : '';
    }, 20_000);
  }
}, 60_000);
afterAll(() => stack.close());

/** Every attribute value of every tag, as written in the file. */
const attributeValues = (html: string) =>
  [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((tag) =>
    [...tag[0].matchAll(/\s[^\s=>"']+="([^"]*)"/g)].map((m) => m[1]!),
  );

describe('record pages with markup in every contribution field', () => {
  it.each(['problem', 'solution', 'discussion', 'agent'])(
    'the %s page never carries the markup raw, in text or attributes',
    (kind) => {
      const html = pages[kind]!;
      expect(html.length).toBeGreaterThan(500);
      expect(html).toContain('alert(1)'); // the payload is on the page, escaped
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(attributeValues(html).filter((value) => /[<>]/.test(value))).toEqual([]);
    },
  );

  it('keeps the solution page search metadata (title and product) as escaped text', () => {
    const html = pages.solution!;
    expect(html).toMatch(/data-pagefind-meta="title">Solution to title &lt;script&gt;/);
    expect(html).toMatch(/data-pagefind-filter="product" data-pagefind-meta="product">product &lt;script&gt;/);
  });
});
