import { describe, expect, it } from 'vitest';
import { markdownHtml, plainParagraphs } from '../../site/lib/markdown/render.ts';
import { seededRandom } from '../helpers/workload.ts';

// Prose characters weighted towards what makes lines, paragraphs and their edges, plus a few that are not prose.
const ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...' '.repeat(12),
  ...'\n'.repeat(6),
  ...',.;:?!\'"()/%$-',
  ...'*_#>`<&[\t\u00a0é',
];

/** Every prose character, and the line and paragraph edges, without the others. */
const PROSE_ONLY = ALPHABET.filter((c) => !'*_#>`<&[\t\u00a0é'.includes(c));

function text(next: () => number, alphabet: string[]): string {
  const length = Math.floor(next() * 120);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

const EDGES = [
  '',
  '\n',
  'one line',
  'one line ',
  'trailing spaces   ',
  'two\nlines',
  'two \nlines',
  'two  \nlines',
  'para one.\n\npara two.\n\n\n\npara three. ',
  ' leading space',
  '    indented code',
  '1. a list',
  '2) a list',
  '- a list',
  '---',
  'Heading\n---',
  'Heading\n===',
  'A paragraph\n- then a list',
  'A paragraph\n1. not a list after a paragraph',
  'Quotes "double" and \'single\'; (parens) 50% $5 a/b c:d e?f g!h',
  'The watcher runs out of inotify handles while building (abc/1).\n\nSteps: start the dev server. '.repeat(3),
  'mail me at a@b.c',
  'see www.example.com',
  'http://example.com',
  'end\n',
  'end\n\n',
  '\n\nstart',
  'a\n \nb',
  `a${' '.repeat(20000)}b`,
  `long run of spaces at the end${' '.repeat(20000)}`,
];

describe('plain prose skips only the Markdown parse', () => {
  it('makes the same HTML as the full pipeline for every text it takes as plain', async () => {
    const next = seededRandom(20251202);
    let plain = 0;
    const texts = [...EDGES];
    for (let i = 0; i < 3000; i++) texts.push(text(next, i % 2 ? ALPHABET : PROSE_ONLY));
    for (const t of texts) {
      if (plainParagraphs(t) === undefined) continue;
      plain++;
      for (const base of [2, 3])
        expect(await markdownHtml(t, base), JSON.stringify(t)).toBe(await markdownHtml(t, base, true));
    }
    // The generator must reach both sides of the gate for the comparison to mean anything.
    expect(plain).toBeGreaterThan(400);
    expect(plain).toBeLessThan(texts.length);
  });

  it('takes ordinary prose as plain, and leaves anything that could be markup to the parser', () => {
    expect(plainParagraphs('First paragraph.\n\nSecond one, with (parens) and 50%. ')).toEqual([
      'First paragraph.',
      'Second one, with (parens) and 50%.',
    ]);
    for (const t of ['*em*', '# h', '> q', '`c`', '<b>', '&amp;', '- l', '1. l', '    c', 'a  \nb', 'x@y.z', 'é'])
      expect(plainParagraphs(t), t).toBeUndefined();
  });
});
