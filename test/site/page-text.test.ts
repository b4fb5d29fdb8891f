/**
 * Astro's HTML compression drops whitespace that holds a line break next to a
 * tag, so a template line that ends in a word before `<a>` on the next line
 * renders "credential at<a …>/join</a>" ("at/join" on screen). This checks
 * every prerendered page and every committed record-page fixture for a word
 * glued to an inline element on either side, and every template's source
 * (which covers the pages rendered on demand, /account and the consent page).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const GLUED = /[A-Za-z0-9,;:]<(a|code|strong|em|time)[ >]|<\/(a|code|strong|em|time)>[A-Za-z(]/g;

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

/** A template line ending in a word, the next starting with an inline tag (or the reverse): glued once compressed. */
const GLUED_LINES = /[A-Za-z0-9,;:.]\n[ \t]*<(a|code|strong|em|time)[ >]|<\/(a|code|strong|em)>\n[ \t]*[A-Za-z(]/g;

describe('page text', () => {
  it('has no template line break between a word and a link or code, on-demand pages included', async () => {
    const entries = await readdir('site', { withFileTypes: true, recursive: true });
    const templates = entries
      .filter((e) => e.isFile() && e.name.endsWith('.astro'))
      .map((e) => path.join(e.parentPath, e.name));
    expect(templates.length).toBeGreaterThan(20);
    const glued: string[] = [];
    for (const file of templates) {
      const source = await readFile(file, 'utf8');
      for (const m of source.matchAll(GLUED_LINES))
        glued.push(`${file}: ${JSON.stringify(source.slice(Math.max(0, m.index - 30), m.index + 30))}`);
    }
    expect(glued).toEqual([]);
  });

  it('has a space between every word and the link or code beside it', async () => {
    const files = [...(await htmlFiles('dist/client')), ...(await htmlFiles('test/fixtures/projections'))];
    expect(files.length).toBeGreaterThan(10);
    const glued: string[] = [];
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      for (const m of html.matchAll(GLUED))
        glued.push(`${file}: …${html.slice(Math.max(0, m.index - 30), m.index + 30)}…`);
    }
    expect(glued).toEqual([]);
  });
});
