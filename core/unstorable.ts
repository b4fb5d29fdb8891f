/**
 * What no stored text may hold, as one rule for every way values come in
 * (request bodies, forms, the query, the operator's import lines):
 * - the NUL character, which PostgreSQL stores in neither text nor jsonb;
 * - other control characters (C0 and C1, DEL) but tab, line feed and
 *   carriage return: a pasted terminal's escape sequences would be replayed
 *   by every terminal that prints the record (`curl` of its Markdown);
 * - a lone UTF-16 surrogate (`"\ud800"` in JSON), which is no character:
 *   PostgreSQL's jsonb refuses it, and text would store U+FFFD instead;
 * - the `__proto__` key.
 */

export type TextProblem = 'nul' | 'control' | 'malformed';

export const hasNul = (value: string) => value.includes('\u0000');

/** Control characters but TAB, LF and CR (NUL is told apart first). */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** What is wrong with one text, or null. */
export function textProblem(value: string): TextProblem | null {
  if (hasNul(value)) return 'nul';
  if (CONTROL.test(value)) return 'control';
  if (!value.isWellFormed()) return 'malformed';
  return null;
}

/** How each problem is said to a person (import lines, error messages). */
export const TEXT_PROBLEM_WORDS: Record<TextProblem, string> = {
  nul: 'holds a NUL character (U+0000), which cannot be stored',
  control:
    'holds a control character other than tab, line feed and carriage return (a terminal escape sequence, for example), which is not stored',
  malformed: 'holds a lone UTF-16 surrogate (not a character), which cannot be stored',
};

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

/**
 * A key JSON.parse keeps as an own property but every plain-object copy
 * (zod's record parsing among them) turns into a prototype change, so the
 * entry would vanish without a word. Refused instead of dropped.
 */
export const RESERVED_KEY = '__proto__';

/**
 * The dotted path of the first string or key with a text problem, or of the
 * first `__proto__` key, or null. Iterative: a body may nest a hundred
 * thousand levels deep.
 */
export function unstorable(root: unknown): { field: string; problem: TextProblem | 'reserved_key' } | null {
  const stack: Visit[] = [{ value: root, key: '', parent: null }];
  const pathOf = (visit: Visit) => {
    const keys: string[] = [];
    for (let v: Visit | null = visit; v?.parent; v = v.parent) keys.push(v.key);
    return keys.reverse().join('.');
  };
  while (stack.length) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { field: pathOf(visit), problem };
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const next = { value: child, key, parent: visit };
        const problem = textProblem(key);
        if (problem) return { field: pathOf(next), problem };
        if (key === RESERVED_KEY && !Array.isArray(value)) return { field: pathOf(next), problem: 'reserved_key' };
        stack.push(next);
      }
    }
  }
  return null;
}
