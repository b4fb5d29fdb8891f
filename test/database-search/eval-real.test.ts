/**
 * The real-material evaluation's data (bench/eval-real/*.json): its shape,
 * how much of it there is, and that the held-out part is held out by whole
 * sources. Reads the files only; `npm run eval:search` measures the search.
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_Q_MAX_CHARS } from '../../core/schemas/search-params.ts';
import { clip } from '../../bench/lib/search-evaluation.ts';
import {
  heldOutSource,
  loadRealCases,
  loadRealPart,
  realCounts,
  realQueries,
  realSplitOf,
  sourceKey,
  sourcesOf,
} from '../../bench/lib/real-evaluation.ts';

const cases = loadRealCases();
const tuning = loadRealPart('tuning');
const heldout = loadRealPart('heldout');

describe('real-material evaluation data', () => {
  it('has enough literals and products, about a third held out', () => {
    const counts = realCounts(cases);
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(counts.products).toBeGreaterThanOrEqual(25);
    expect(tuning.length).toBeGreaterThanOrEqual(150);
    const share = heldout.length / cases.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.45);
  });

  it('lends no held-out repository or site to the tuning part', () => {
    const tuningKeys = new Set(tuning.flatMap(sourcesOf).map(sourceKey));
    expect([...tuningKeys].filter(heldOutSource)).toEqual([]);
    // every held-out case draws on at least one held-out source
    for (const c of heldout) expect(sourcesOf(c).map(sourceKey).some(heldOutSource), c.id).toBe(true);
    for (const c of tuning) expect(realSplitOf(c)).toBe('tuning');
    for (const c of heldout) expect(realSplitOf(c)).toBe('heldout');
  });

  it("gives every case another reporter's form, a fragment and a symptom", () => {
    for (const c of cases) {
      const machine = c.queries.filter((q) => q.kind === 'machine');
      expect(machine.length, c.id).toBeGreaterThan(0);
      for (const q of machine) {
        expect(q.source, `${c.id}: machine form from the literal's own thread`).not.toBe(c.source);
        expect(q.q.trim(), `${c.id}: machine form equal to the literal`).not.toBe(c.literal.trim());
      }
      expect(
        c.queries.some((q) => q.kind === 'substring'),
        c.id,
      ).toBe(true);
      expect(
        c.queries.some((q) => q.kind === 'symptom'),
        c.id,
      ).toBe(true);
    }
  });

  it('cites https addresses and sends queries the API accepts', () => {
    for (const c of cases) for (const url of sourcesOf(c)) expect(url).toMatch(/^https:\/\//);
    for (const item of realQueries(cases)) {
      expect(item.q.length).toBeLessThanOrEqual(SEARCH_Q_MAX_CHARS);
      expect(item.q).toBe(clip(item.q));
      expect(item.q.trim().length).toBeGreaterThan(0);
    }
  });
});
