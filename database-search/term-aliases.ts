/**
 * Names one thing goes by, as English full-text lexemes: an agent types
 * `postgres` where the record says `PostgreSQL`, `k8s` where it says
 * `Kubernetes`, and the English stemmer joins neither (`postgr` against
 * `postgresql`). A query term in a group matches any of the group's
 * lexemes: one term, so a record holding either spelling holds the term
 * once, and one holding both is not counted twice. Only short forms that
 * name nothing else belong here.
 */
export const TERM_ALIASES: readonly (readonly string[])[] = [
  ['postgr', 'postgresql'],
  ['mongo', 'mongodb'],
  ['k8s', 'kubernet'],
];

const GROUP_OF = new Map(TERM_ALIASES.flatMap((group) => group.map((lexeme) => [lexeme, group] as const)));

/** The lexeme of a single-term tsquery text (`'postgr'` → `postgr`). */
function lexemeOf(term: string): string {
  return term.startsWith("'") && term.endsWith("'") ? term.slice(1, -1).replace(/''/g, "'") : term;
}

/**
 * The query's terms (single-term tsquery texts, `findQueryTerms`) with each
 * aliased one widened to its group as one tsquery text (`'postgr' |
 * 'postgresql'`), in the order they came; a second spelling of a group
 * already there is dropped.
 */
export function withAliases(terms: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<readonly string[]>();
  for (const term of terms) {
    const group = GROUP_OF.get(lexemeOf(term));
    if (!group) {
      out.push(term);
      continue;
    }
    if (seen.has(group)) continue;
    seen.add(group);
    out.push(group.map((lexeme) => `'${lexeme}'`).join(' | '));
  }
  return out;
}

/** A term as an operand of `&`: an alias group in parentheses (`|` binds looser than `&`). */
export function termOperand(term: string): string {
  return term.includes(' | ') ? `(${term})` : term;
}
