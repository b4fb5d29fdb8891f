/**
 * A query's full-text terms are remembered (database-search/query-terms.ts):
 * the remembered answer is the database's own, a repeated query asks the
 * database nothing, and neither does a new query made of pieces seen before.
 * Put together from its pieces, a query's terms are those of the whole text,
 * over the evaluation's queries, the bench's and generated texts.
 */
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { findQueryTerms } from '../../db/queries/search.ts';
import { piecesOf, queryTerms } from '../../database-search/query-terms.ts';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import { withoutLogPrefixes } from '../../database-search/log-prefix.ts';
import { redactText } from '../../core/redact-secrets.ts';
import { evaluationQueries } from '../../bench/lib/search-evaluation.ts';
import { sampleLiteral, sampleSymptom, sampleTruncated } from '../../bench/seed/corpus.ts';
import { createRandom, type Random } from '../../bench/seed/random.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => (pool = clone.pool));

/** The pool, counting the statements sent through it. */
function counting(): Queryable & { sent: number } {
  const db = {
    sent: 0,
    query: (text: string, params?: unknown[]) => {
      db.sent++;
      return pool.query(text, params);
    },
  };
  return db as Queryable & { sent: number };
}

describe('queryTerms', () => {
  it('answers what the database answers, and asks it only the first time', async () => {
    const message = `the postgres pool keeps refusing connections after restarts ${Math.random()}`;
    const db = counting();
    const first = await queryTerms(db, message, 16);
    expect(first).toEqual(await findQueryTerms(pool, message, 16));
    expect(first).toContain("'postgr'");
    expect(db.sent).toBe(1);
    expect(await queryTerms(db, message, 16)).toEqual(first);
    expect(db.sent).toBe(1);
  });

  it('answers each limit from the same pieces, and cannot be changed through an answer', async () => {
    const message = `one two three docker compose builds failing behind a proxy ${Math.random()}`;
    const db = counting();
    const all = await queryTerms(db, message, 16);
    const two = await queryTerms(db, message, 2);
    expect(two).toEqual(all.slice(0, 2));
    two.push('changed');
    expect(await queryTerms(db, message, 2)).toEqual(all.slice(0, 2));
    expect(await queryTerms(db, message, 16)).toEqual(all);
    expect(db.sent).toBe(1);
  });

  it('asks nothing for a new query made of pieces it has seen, and once for one with a new piece', async () => {
    const word = `w${Math.random().toString(36).slice(2)}`;
    const db = counting();
    await queryTerms(db, `disk full while ${word} writes the cache`, 16);
    expect(db.sent).toBe(1);
    const again = `disk full while writes ${word} the cache`;
    expect(await queryTerms(db, again, 16)).toEqual(await findQueryTerms(pool, again, 16));
    expect(db.sent).toBe(1);
    const more = `${again} ${word}x`;
    expect(await queryTerms(db, more, 16)).toEqual(await findQueryTerms(pool, more, 16));
    expect(db.sent).toBe(2);
  });

  it('sends whole a query where a tag could reach past white space, or one holding <script>', async () => {
    const db = counting();
    const tag = `see <a href="x y"> link ${Math.random()}`;
    expect(await queryTerms(db, tag, 16)).toEqual(await findQueryTerms(pool, tag, 16));
    const script = `before <script> inside words ${Math.random()}`;
    expect(await queryTerms(db, script, 16)).toEqual(await findQueryTerms(pool, script, 16));
    expect(await queryTerms(db, script, 16)).not.toContain("'insid'");
    expect(db.sent).toBe(2);
  });

  it('cuts a text into its runs between white space, each as the parser meets it in the whole text', () => {
    expect(piecesOf('a  bc\td')).toEqual(['a ', 'bc ', 'd']);
    expect(piecesOf(' a ')).toEqual(['a ']);
    expect(piecesOf('~/x ./y .z ~')).toEqual(['~/x ', ' ./y ', ' .z ', ' ~']);
    expect(piecesOf('')).toEqual([]);
  });

  it('asks the database every time for a text too long to keep', async () => {
    const message = `${'connection refused while reading the response '.repeat(50)}${Math.random()}`;
    const db = counting();
    const first = await queryTerms(db, message, 16);
    expect(await queryTerms(db, message, 16)).toEqual(first);
    expect(db.sent).toBe(2);
  });
});

/** Text of the shapes the parser reads specially: numbers, versions, hosts, URLs, paths, e-mail, hyphens, entities, tags. */
const FRAGMENTS = [
  'error',
  'the',
  'connection',
  'refused',
  'e',
  'E',
  '1',
  '42',
  '-5',
  '+3',
  '3.14',
  '1.2.3',
  '1e5',
  '2.0e-3',
  '.',
  '..',
  './',
  '../',
  '~',
  '~/',
  '/',
  '/usr/lib',
  'a/b',
  '-',
  '--',
  '+',
  '&',
  '&amp;',
  '&#38;',
  '&#x26;',
  '@',
  'user@example.com',
  ':',
  '://',
  'http',
  'https://example.com/a?b=c',
  'www.',
  'example.com',
  'example.com:8080/x',
  'registry-1.docker.io/v2/',
  '.com',
  '_',
  '__init__',
  'foo-bar',
  'foo-bar-baz',
  'x-1',
  '1-x',
  '#',
  ';',
  "'",
  "''",
  '"',
  'é',
  'straße',
  'naïve',
  '·',
  '\u200b',
  '\u0301',
  '日本',
  '<n>',
  '<path>',
  '<redacted>',
  '<',
  '>',
  '</',
  '<!--',
  '-->',
  '<a',
  'b>',
  '<br/>',
  '?',
  '%',
  '=',
  ',',
  '(',
  ')',
  '[',
  ']',
  'node_modules',
  'v1.2',
  'v',
  '0x1f',
  '1st',
  'k8s',
  'postgres',
  'postgresql',
  'its',
  "it's",
  'running',
  'ran',
];
const SPACES = [' ', ' ', ' ', '  ', '\t', '\n', ' \n '];

function generatedText(r: Random): string {
  let text = r.chance(0.2) ? r.pick(SPACES) : '';
  const n = r.int(1, 12);
  for (let i = 0; i < n; i++) {
    text += r.pick(FRAGMENTS);
    if (r.chance(0.6)) text += r.pick(SPACES);
    else if (r.chance(0.3)) text += r.pick(FRAGMENTS);
  }
  return text;
}

describe('queryTerms put together from pieces', () => {
  it("answers the whole text's terms, for the evaluation's queries, the bench's and generated texts", async () => {
    const r = createRandom(11);
    const raw = [
      ...evaluationQueries().map((item) => item.q),
      ...Array.from({ length: 300 }, () => sampleLiteral(r)),
      ...Array.from({ length: 300 }, () => sampleTruncated(r)),
      ...Array.from({ length: 300 }, () => sampleSymptom(r)),
      ...Array.from({ length: 3000 }, () => generatedText(r)),
    ];
    // As runSearch sends them (the query, redacted, normalized, without log prefixes), and as they are.
    const texts = [
      ...new Set([...raw.map((q) => withoutLogPrefixes(normalizeLiteral(redactText(q).value))), ...raw]),
    ].filter((text) => text.length <= 2000 && !text.includes('\u0000'));
    const differing: string[] = [];
    for (const text of texts) {
      for (const max of [16, 1000]) {
        const expected = await findQueryTerms(pool, text, max);
        const got = await queryTerms(pool, text, max);
        if (JSON.stringify(got) !== JSON.stringify(expected))
          differing.push(`${JSON.stringify(text)}: ${got.join(' ')} ≠ ${expected.join(' ')}`);
      }
    }
    expect(texts.length).toBeGreaterThan(4000);
    expect(differing).toEqual([]);
  }, 120_000);
});
