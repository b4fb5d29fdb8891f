import { describe, expect, it } from 'vitest';
import { allTermsQuery, prefilterQuery } from '../../database-search/keyword-query.ts';
import { termOperand, withAliases } from '../../database-search/term-aliases.ts';

describe('withAliases', () => {
  it('widens a short or long name to its group, in place, and keeps other terms', () => {
    expect(withAliases(["'python'", "'postgr'", "'refus'"])).toEqual([
      "'python'",
      "'postgr' | 'postgresql'",
      "'refus'",
    ]);
    expect(withAliases(["'kubernet'", "'pod'"])).toEqual(["'k8s' | 'kubernet'", "'pod'"]);
    expect(withAliases(["'mongo'"])).toEqual(["'mongo' | 'mongodb'"]);
  });

  it('makes one term of two spellings in one query', () => {
    expect(withAliases(["'postgresql'", "'postgr'", "'role'"])).toEqual(["'postgr' | 'postgresql'", "'role'"]);
  });

  it('groups an alias as one operand of the keyword tsqueries', () => {
    const terms = withAliases(["'postgr'", "'refus'"]);
    expect(termOperand(terms[0]!)).toBe("('postgr' | 'postgresql')");
    expect(allTermsQuery(terms)).toBe("('postgr' | 'postgresql') & 'refus'");
    expect(prefilterQuery(terms)).toBe("(('postgr' | 'postgresql') & 'refus')");
  });
});
