/**
 * The Markdown of contribution text as the record pages render it: markup
 * written in the text stays text, links are marked, code is highlighted by
 * classes only (the page policy allows no inline style).
 */
import { describe, expect, it } from 'vitest';
import { markdownProcessor, mayUseGfm, renderMarkdown } from '../../site/lib/markdown/render.ts';

describe('contribution Markdown', () => {
  it('shows raw HTML as the text it is', async () => {
    const html = await renderMarkdown(
      'Hi <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n<div onclick="x()">block</div>',
    );
    expect(html).not.toMatch(/<(script|img|div)\b/);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toContain('&#x3C;div onclick="x()">block&#x3C;/div>');
  });

  it('drops javascript: links, turns images into links and marks every link nofollow ugc noopener', async () => {
    const html = await renderMarkdown(
      '[a](javascript:alert(1)) ![pic](https://example.org/p.png) <https://example.org>',
    );
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.org/p.png" rel="nofollow ugc noopener">Image: pic</a>');
    expect(html).toContain('<a href="https://example.org" rel="nofollow ugc noopener">https://example.org</a>');
  });

  it('moves headings under the field, without skipping a level', async () => {
    const html = await renderMarkdown('# One\n\n### Three\n\n## Two', 3);
    expect(html).toContain('<h3>One</h3>');
    expect(html).toContain('<h5>Three</h5>');
    expect(html).toContain('<h4>Two</h4>');
  });

  it('highlights fenced code with classes and no style attribute, and shows unknown languages as text', async () => {
    const html = await renderMarkdown('```js\nconst a = 1; // note\n```\n\n```nosuchlang\n<b>x</b>\n```');
    expect(html).toMatch(/<pre[^>]*class="shiki[^"]*"/);
    expect(html).toMatch(/<span class="sl-[0-9a-f]+ sd-[0-9a-f]+">const<\/span>/);
    expect(html).not.toContain('style=');
    expect(html).toContain('&#x3C;b>x&#x3C;/b>');
  });

  it('renders GitHub tables, and task lists with their boxes as text', async () => {
    const html = await renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] to do');
    // Scrolls inside itself when wide (site.css): focusable, so a keyboard can scroll it.
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('<td>2</td>');
    expect(html).not.toContain('<input');
    expect(html).toContain('☑ done');
    expect(html).toContain('☐ to do');
  });

  it('keeps footnotes as numbers and a list, with no link to an id the sanitizer removed', async () => {
    const html = await renderMarkdown('See the limit[^1].\n\n[^1]: fs.inotify.max_user_watches');
    expect(html).toContain('See the limit<sup>1</sup>.');
    expect(html).toContain('fs.inotify.max_user_watches');
    expect(html).not.toMatch(/href="#|aria-describedby|data-footnote-backref/);
  });

  it.each([
    ['a table', '| a | b |\n|---|---|\n| 1 | 2 |'],
    ['strikethrough', 'was ~~wrong~~ right'],
    ['a task list', '- [x] done'],
    ['a footnote', 'see[^1]\n\n[^1]: there'],
    ['an email address', 'write to someone@example.org'],
    ['a www address', 'at WWW.example.org today'],
    ['a web address', 'at https://example.org/x'],
    ['an xmpp address', 'xmpp:someone@example.org'],
  ])('parses text holding %s with GitHub extensions', (_, text) => {
    expect(mayUseGfm(text)).toBe(true);
  });

  it('renders text that could hold no GitHub extension as the extensions would', async () => {
    // Markdown's own syntax, and near misses of GitHub's (no |, ~, [, @, www. or ://).
    // Split on `|`, which is one of GitHub's own characters and so never a piece.
    const pieces = [
      'word|Word| |  |  \n|\n|\n\n|\t|*|**|_|`|```|#|# |> |- |+ |1. |2) |    |---|===|***|<b>|</b>|<!-- x -->',
      '&amp;|&|&#35;|\\|\\*|(|)|]|!|:|/|//|http|https:|http:/|www|ww.|mailto:|.|,|"|\'|=|%|0x1f|<https>|é|😀|\r\n',
    ].flatMap((line) => line.split('|'));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = Array.from({ length: 500 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)]).join(''),
    ).filter((text) => !mayUseGfm(text));
    expect(texts.length).toBeGreaterThan(300);
    for (const text of texts) {
      const withGfm = String(await markdownProcessor(3, true).process(text));
      expect(await renderMarkdown(text), JSON.stringify(text)).toBe(withGfm);
    }
  });
});
