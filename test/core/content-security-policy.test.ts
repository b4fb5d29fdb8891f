import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { admit, eventually, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

/**
 * What `script-src 'self'; style-src 'self'` would block, found in markup:
 * script elements with a body or without src, style elements and attributes,
 * inline event handlers and javascript: URLs.
 */
/** A start tag's attributes as the HTML tokenizer reads them: text inside a quoted value is no attribute. */
function attributesOf(tag: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [, name, , double, single, bare] of tag.matchAll(
    /\s([^\s"'>/=]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    out.push([name!.toLowerCase(), double ?? single ?? bare ?? '']);
  }
  return out;
}

function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const [tag, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\ssrc=/.test(attributes) || body.trim() !== '') found.push(tag.slice(0, 120));
  }
  for (const [match] of html.matchAll(/<style\b[^>]*>/gi)) found.push(match.slice(0, 120));
  // Start tags, quoted values kept whole so a '>' inside one does not end the tag.
  for (const [tag] of html.matchAll(
    /<[a-z][a-z0-9-]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*\s*\/?>/gi,
  )) {
    for (const [name, value] of attributesOf(tag)) {
      const scriptUrl = ['href', 'src', 'action', 'formaction'].includes(name) && /^\s*javascript:/i.test(value);
      if (name === 'style' || /^on[a-z]+$/.test(name) || scriptUrl) found.push(tag.slice(0, 120));
    }
  }
  return found;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

describe('inline code detection', () => {
  it.each([
    ['<script>alert(1)</script>'],
    ['<script type="module">import "/x.js"</script>'],
    ['<script src="/a.js">alert(1)</script>'],
    ['<p style="color:red">x</p>'],
    ['<style>p{}</style>'],
    ['<img src="/x" onerror="alert(1)">'],
    ['<a href="javascript:alert(1)">x</a>'],
    ['<a title="x>y" onclick="alert(1)">x</a>'],
    ["<a href=' JavaScript:alert(1)'>x</a>"],
  ])('finds %s', (html) => {
    expect(inlineCode(html)).not.toEqual([]);
  });

  it('accepts code-like text inside an attribute value or as text, where it is inert', () => {
    expect(
      inlineCode('<meta name="description" content="p style=&quot;x&quot; onclick=&quot;y&quot; onload=1">'),
    ).toEqual([]);
    expect(inlineCode('<p>&lt;a href="javascript:alert(1)"&gt;x&lt;/a&gt;</p>')).toEqual([]);
  });

  it('accepts an external module script and escaped text that looks like code', () => {
    expect(
      inlineCode(
        '<script type="module" src="/_astro/a.js"></script><p>&lt;script&gt;alert(1)&lt;/script&gt; style=&quot;x&quot; javascript:void(0)</p>',
      ),
    ).toEqual([]);
  });
});

describe('built pages under the strict CSP', () => {
  it('have no inline script or style in any prerendered page', async () => {
    const files = await htmlFiles(loadConfig({}).ASTRO_CLIENT_DIR);
    expect(files.map((f) => path.basename(path.dirname(f)))).toEqual(
      expect.arrayContaining(['join', 'authentication']),
    );
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      expect(inlineCode(html), file).toEqual([]);
      expect(html, file).toContain('<meta http-equiv="Content-Security-Policy"');
    }
  });

  describe('record pages', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack();
    });
    afterAll(() => stack.close());

    it('have none either, even when contributions contain markup', async () => {
      const agent = await admit(stack.base);
      const hostile = '<script>alert(1)</script><p style="x" onclick="y">z</p><a href="javascript:alert(1)">l</a>';
      const problem = await send(
        stack.base,
        agent,
        'POST',
        '/api/problems',
        problemBody({ body: hostile, error_literal: hostile }),
      );
      const solution = await send(stack.base, agent, 'POST', '/api/solutions', {
        problem_id: problem.body.resource.id,
        body: hostile,
        limitations: hostile,
      });
      for (const file of [`problems/${problem.body.resource.id}.html`, `solutions/${solution.body.resource.id}.html`]) {
        const html = await eventually(() =>
          readFile(path.join(stack.config.PROJECTIONS_DIR, file), 'utf8').catch(() => null),
        );
        expect(inlineCode(html), file).toEqual([]);
        expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      }
    });
  });
});
