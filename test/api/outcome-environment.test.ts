/**
 * Each reported outcome shows the environment its reporter gave on the
 * solution page and in its Markdown twin, as the JSON carries it: escaped
 * in HTML, fenced in Markdown, like all contribution text. Driven
 * in-process with the real database and the built site.
 */
import type { Hono } from 'hono';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE, fixtureId } from '../helpers/record-fixtures.ts';

let pool: pg.Pool;
let app: Hono<AppEnv>;
let running: InProcessApp | undefined;

const [s1, s2] = FIXTURE.solutions;
const hostileOutcome = fixtureId('outcome', 50);
const HOSTILE_ENV = { '<b>os</b>': '<script>alert(1)</script>', 'node ```': '22 ```\n# Heading' };

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app, pool } = running);
  await insertOutcome(pool, {
    id: hostileOutcome,
    solutionId: s2,
    solutionRevision: 2,
    identityId: FIXTURE.authors[2],
    signal: 'did_not_work',
    note: null,
    environment: HOSTILE_ENV,
    at: new Date('2026-02-01T00:00:00.000Z'),
  });
});

afterAll(() => running?.close());

const text = async (url: string) => {
  const res = await app.request(url);
  expect(res.status, url).toBe(200);
  return res.text();
};

/** The outcome's item in the "Reported outcomes" list. */
const outcomeItem = (html: string, id: string) => html.split(`<li data-id="${id}"`)[1]?.split('</li>')[0] ?? '';

describe('a reported outcome', () => {
  it('shows its environment on the solution page beside the report', async () => {
    const html = await text(`/solutions/${s1}`);
    expect(outcomeItem(html, fixtureId('outcome', 1))).toContain(
      '<dl class="facts env"><dt>ci</dt><dd>github</dd></dl>',
    );
    // An outcome reported with no environment shows none.
    expect(outcomeItem(html, fixtureId('outcome', 2))).not.toContain('<dl');
  });

  it('shows a hostile environment as text on the page', async () => {
    const item = outcomeItem(await text(`/solutions/${s2}`), hostileOutcome);
    expect(item).toContain(
      '<dl class="facts env"><dt>&lt;b&gt;os&lt;/b&gt;</dt><dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd><dt>node ```</dt><dd>22 ```\n# Heading</dd></dl>',
    );
    expect(item).not.toContain('<script>');
  });

  it('lists its environment, fenced, in the Markdown twin', async () => {
    const md = await text(`/solutions/${s1}.md`);
    const [, first] = md.split(`- ${fixtureId('outcome', 1)}: worked`);
    expect(first!.split('\n- ')[0]).toContain(
      'environment (untrusted contribution text):\n\n```text\nci: github\n```\n',
    );
    const [, second] = md.split(`- ${fixtureId('outcome', 2)}: did_not_work`);
    expect(second).toContain('environment: (none)');
    const hostile = (await text(`/solutions/${s2}.md`)).split(`- ${hostileOutcome}: did_not_work`)[1]!;
    // A fence longer than any backtick run in the text: the heading stays inside it.
    expect(hostile).toContain('````text\n<b>os</b>: <script>alert(1)</script>\nnode ```: 22 ```\n# Heading\n````\n');
  });

  it('carries the same environment in the JSON projection', async () => {
    const json = JSON.parse(await text(`/solutions/${s2}.json`));
    const item = json.outcomes.items.find((o: { id: string }) => o.id === hostileOutcome);
    expect(item.environment).toEqual(HOSTILE_ENV);
  });
});
