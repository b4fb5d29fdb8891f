/**
 * What no stored text may hold, as one rule for every way values come in
 * (request bodies, forms, the query, the operator's import lines):
 * - the NUL character, which PostgreSQL stores in neither text nor jsonb;
 * - other control characters (C0 and C1, DEL) but tab, line feed and
 *   carriage return: a pasted terminal's escape sequences would be replayed
 *   by every terminal that prints the record (`curl` of its Markdown);
 * - a lone UTF-16 surrogate (`"\ud800"` in JSON), which is no character:
 *   PostgreSQL's jsonb refuses it, and text would store U+FFFD instead;
 * - the bidirectional embedding, override and isolate controls (U+202A to
 *   U+202E, U+2066 to U+2069): they make a command read differently from
 *   what a reader copies and runs ("Trojan Source", CVE-2021-42574), and
 *   spill into the page around the field; right-to-left scripts need none
 *   of them (the marks U+200E and U+200F stay allowed), and rustc refuses
 *   them in source text for the same reason;
 * - the `__proto__` key.
 */

export type TextProblem = 'nul' | 'control' | 'malformed' | 'bidi';

export const hasNul = (value: string) => value.includes('\u0000');

/** Control characters but TAB, LF and CR (NUL is told apart first). */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** The bidirectional embeddings, overrides and isolates. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** What is wrong with one text, or null. */
export function textProblem(value: string): TextProblem | null {
  if (hasNul(value)) return 'nul';
  if (CONTROL.test(value)) return 'control';
  if (!value.isWellFormed()) return 'malformed';
  if (BIDI_CONTROL.test(value)) return 'bidi';
  return null;
}

/**
 * Text the service fetched rather than was sent (a client's metadata
 * document), with every character the rule refuses replaced by U+FFFD: it
 * is shown and stored, and there is no request to refuse.
 */
export function withUnstorableReplaced(value: string): string {
  return value
    .toWellFormed()
    .replaceAll('\u0000', '\uFFFD')
    .replace(EVERY_CONTROL, '\uFFFD')
    .replace(EVERY_BIDI_CONTROL, '\uFFFD');
}

const EVERY_CONTROL = new RegExp(CONTROL.source, 'gu');
const EVERY_BIDI_CONTROL = new RegExp(BIDI_CONTROL.source, 'g');

/** How each problem is said to a person (import lines, error messages). */
export const TEXT_PROBLEM_WORDS: Record<TextProblem, string> = {
  nul: 'holds a NUL character (U+0000), which cannot be stored',
  control:
    'holds a control character other than tab, line feed and carriage return (a terminal escape sequence, for example), which is not stored',
  malformed: 'holds a lone UTF-16 surrogate (not a character), which cannot be stored',
  bidi: 'holds a bidirectional embedding, override or isolate control (U+202A to U+202E, U+2066 to U+2069), which is not stored',
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
