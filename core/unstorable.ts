/**
 * What no stored value may hold, as one rule for every way values come in
 * (request bodies, the operator's import lines): the NUL character, which
 * PostgreSQL stores in neither text nor jsonb, and the `__proto__` key.
 */

export const hasNul = (value: string) => value.includes('\u0000');

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
 * The dotted path of the first string or key holding U+0000 (which
 * PostgreSQL stores in neither text nor jsonb), or of the first `__proto__`
 * key, or null. Iterative: a body may nest a hundred thousand levels deep.
 */
export function unstorable(root: unknown): { field: string; problem: 'nul' | 'reserved_key' } | null {
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
      if (hasNul(value)) return { field: pathOf(visit), problem: 'nul' };
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const next = { value: child, key, parent: visit };
        if (hasNul(key)) return { field: pathOf(next), problem: 'nul' };
        if (key === RESERVED_KEY && !Array.isArray(value)) return { field: pathOf(next), problem: 'reserved_key' };
        stack.push(next);
      }
    }
  }
  return null;
}
