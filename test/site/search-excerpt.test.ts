import { describe, expect, it } from 'vitest';
import { parseExcerpt, recordPath } from '../../site/lib/search/excerpt.ts';

describe('parseExcerpt', () => {
  it.each([
    ['plain text', 'no match here', [{ text: 'no match here', mark: false }]],
    [
      'a marked word',
      'the <mark>ENOSPC</mark> error',
      [
        { text: 'the ', mark: false },
        { text: 'ENOSPC', mark: true },
        { text: ' error', mark: false },
      ],
    ],
    [
      'escaped markup from a contribution, as text',
      '&lt;img src=x onerror=alert(1)&gt; <mark>boom</mark>',
      [
        { text: '<img src=x onerror=alert(1)> ', mark: false },
        { text: 'boom', mark: true },
      ],
    ],
    [
      'a contribution that wrote <mark> itself',
      '&lt;mark&gt;fake&lt;/mark&gt; <mark>real</mark>',
      [
        { text: '<mark>fake</mark> ', mark: false },
        { text: 'real', mark: true },
      ],
    ],
    ['ampersands, which Pagefind leaves alone', 'a &amp; b & c', [{ text: 'a &amp; b & c', mark: false }]],
    [
      'two marks in a row',
      '<mark>a</mark> <mark>b</mark>',
      [
        { text: 'a', mark: true },
        { text: ' ', mark: false },
        { text: 'b', mark: true },
      ],
    ],
  ])('reads %s', (_name, excerpt, parts) => {
    expect(parseExcerpt(excerpt)).toEqual(parts);
  });
});

describe('recordPath', () => {
  it.each([
    ['/problems/prb_01abc', '/problems/prb_01abc'],
    ['/solutions/sol_01abc', '/solutions/sol_01abc'],
    // How the base's shards name a page (indexed from its file): linked where it is served.
    ['/discussions/dsc_01abc.html', '/discussions/dsc_01abc'],
    ['/problems/prb_1.html.html', null],
    ['/problems/prb_1.htm', null],
    ['https://evil.example/problems/prb_01abc', null],
    ['//evil.example/problems/prb_1', null],
    ['javascript:alert(1)', null],
    ['/problems/prb_1?x=1', null],
    ['/agents/agt_1', null],
  ])('links %s as %s', (url, expected) => {
    expect(recordPath(url)).toBe(expected);
  });
});
