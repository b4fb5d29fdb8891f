import { describe, expect, it } from 'vitest';
import { minimumTerms, prefilterQuery, relaxedMinimumTerms } from '../../database-search/keyword-query.ts';

/** Whether a document holding `held` satisfies a prefilter of the shape prefilterQuery writes. */
function satisfies(prefilter: string, held: Set<string>): boolean {
  return prefilter.split(' | ').some((group) =>
    group
      .replace(/[()]/g, '')
      .split(' & ')
      .every((term) => held.has(term)),
  );
}

const termsOf = (n: number) => Array.from({ length: n }, (_, i) => `'t${i}'`);

describe('minimumTerms', () => {
  it.each([
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 2],
    [7, 4],
    [30, 15],
  ])('of %i terms is %i', (n, k) => {
    expect(minimumTerms(n)).toBe(k);
  });
});

describe('relaxedMinimumTerms', () => {
  it.each([
    [1, 1],
    [2, 2],
    [4, 2],
    [5, 2],
    [6, 2],
    [7, 3],
    [9, 3],
    [16, 6],
  ])('of %i terms is %i, never more than minimumTerms', (n, k) => {
    expect(relaxedMinimumTerms(n)).toBe(k);
    expect(relaxedMinimumTerms(n)).toBeLessThanOrEqual(minimumTerms(n));
  });
});

describe('prefilterQuery', () => {
  it('is null without terms, the term itself for one, and both of two', () => {
    expect(prefilterQuery([])).toBeNull();
    expect(prefilterQuery(["'postgr'"])).toBe("'postgr'");
    expect(prefilterQuery(["'postgr'", "'refus'"])).toBe("('postgr' & 'refus')");
  });

  it('asks for exactly half of the terms while the combinations stay few', () => {
    expect(prefilterQuery(["'a'", "'b'", "'c'"])).toBe("('a' & 'b') | ('a' & 'c') | ('b' & 'c')");
  });

  it.each([2, 3, 4, 5, 6, 7, 8, 9, 12, 20, 31, 40])(
    'lets through every document holding half of %i terms, and none holding fewer than two',
    (n) => {
      const terms = termsOf(n);
      const prefilter = prefilterQuery(terms)!;
      let state = n;
      const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let trial = 0; trial < 300; trial++) {
        const held = new Set(terms.filter(() => random() < 0.5));
        if (held.size >= minimumTerms(n)) expect(satisfies(prefilter, held), [...held].join(' ')).toBe(true);
        if (held.size < 2) expect(satisfies(prefilter, held)).toBe(false);
      }
      expect(prefilter.split(' | ').length).toBeLessThanOrEqual(
        Math.max(128, ((Math.floor(n / 2) + 2) * (Math.floor(n / 2) + 1)) / 2),
      );
    },
  );

  it.each([
    [6, 2],
    [9, 3],
    [12, 4],
    [16, 6],
  ])("with k given, lets through every document holding %i terms' k=%i, and none holding fewer than two", (n, k) => {
    const terms = termsOf(n);
    const prefilter = prefilterQuery(terms, k)!;
    let state = n + k;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 300; trial++) {
      const held = new Set(terms.filter(() => random() < 0.3));
      if (held.size >= k) expect(satisfies(prefilter, held), [...held].join(' ')).toBe(true);
      if (held.size < 2) expect(satisfies(prefilter, held)).toBe(false);
    }
  });
});

describe('prefilterQuery beyond its combinations', () => {
  it.each([
    [10, 5, 4],
    [12, 6, 3],
    [16, 8, 2],
    [10, 4, 3],
  ])(
    'of %i terms with k=%i asks for %i of the first terms, so a record holding fewer does not take a capped row',
    (n, k, j) => {
      const terms = termsOf(n);
      const prefilter = prefilterQuery(terms, k)!;
      expect(prefilter.split(' | ').length).toBeLessThanOrEqual(128);
      expect(prefilter.split(' | ')[0]!.split(' & ').length).toBe(j);
      // Holding j − 1 of them and nothing else is not enough; holding the first j is.
      expect(satisfies(prefilter, new Set(terms.slice(0, j - 1)))).toBe(false);
      expect(satisfies(prefilter, new Set(terms.slice(0, j)))).toBe(true);
      // Every record holding k of the n terms still passes, whichever it misses.
      expect(satisfies(prefilter, new Set(terms.slice(n - k)))).toBe(true);
    },
  );
});
