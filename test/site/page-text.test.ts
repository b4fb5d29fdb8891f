/**
 * Astro's HTML compression drops whitespace that holds a line break next to a
 * tag, so a template line that ends in a word before `<a>` on the next line
 * renders "credential at<a …>/join</a>" ("at/join" on screen). This checks
 * every prerendered page and every committed record-page fixture for a word
 * glued to an inline element on either side.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const GLUED = /[A-Za-z0-9,;:]<(a|code|strong|em|time)[ >]|<\/(a|code|strong|em|time)>[A-Za-z(]/g;

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

describe('page text', () => {
  it('has a space between every word and the link or code beside it', async () => {
    const files = [...await htmlFiles('dist/client'), ...await htmlFiles('test/fixtures/projections')];
    expect(files.length).toBeGreaterThan(10);
    const glued: string[] = [];
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      for (const m of html.matchAll(GLUED)) glued.push(`${file}: …${html.slice(Math.max(0, m.index - 30), m.index + 30)}…`);
    }
    expect(glued).toEqual([]);
  });
});
