import { ERROR_VOCABULARY } from './error-vocabulary.ts';

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
  // Clipped words people type in titles and chat (`db`, `repo`, `config`, `certs`) for the word a record spells out.
  ['db', 'databas'],
  ['repo', 'repositori'],
  ['config', 'configur'],
  ['cert', 'certif'],
  ['dir', 'directori'],
  ['pkg', 'packag'],
  ['cred', 'credenti'],
  ['perm', 'permiss'],
  ['env', 'environ'],
  ['msg', 'messag'],
];

/** Each lexeme's group; groups sharing a lexeme are joined into one. */
function groupsByLexeme(groups: readonly (readonly string[])[]): ReadonlyMap<string, readonly string[]> {
  const of = new Map<string, string[]>();
  for (const group of groups) {
    const joined = [...new Set([...group.flatMap((lexeme) => of.get(lexeme) ?? []), ...group])];
    for (const lexeme of joined) of.set(lexeme, joined);
  }
  return of;
}

const GROUP_OF = groupsByLexeme(TERM_ALIASES);
/** A symptom in words also reaches the codes an error prints by the words that describe them (error-vocabulary.ts). */
const SYMPTOM_GROUP_OF = groupsByLexeme([...TERM_ALIASES, ...ERROR_VOCABULARY]);

/** The lexeme of a single-term tsquery text (`'postgr'` → `postgr`). */
function lexemeOf(term: string): string {
  return term.startsWith("'") && term.endsWith("'") ? term.slice(1, -1).replace(/''/g, "'") : term;
}

/**
 * The query's terms (single-term tsquery texts, `findQueryTerms`) with each
 * aliased one widened to its group as one tsquery text (`'postgr' |
 * 'postgresql'`), in the order they came; a second spelling of a group
 * already there is dropped. A symptom's (`symptom`) groups take in the
 * error vocabulary's too.
 */
export function withAliases(terms: readonly string[], options: { symptom?: boolean } = {}): string[] {
  const groupOf = options.symptom ? SYMPTOM_GROUP_OF : GROUP_OF;
  const out: string[] = [];
  const seen = new Set<readonly string[]>();
  for (const term of terms) {
    const group = groupOf.get(lexemeOf(term));
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

/**
 * Lexemes of the telling, not of the failure: a symptom in words says when
 * and how it was noticed (`it was working fine till two days ago`, `tried
 * everything, still fails`), and records share those words by chance. Each
 * is a term that would count as much as a telling one in coverage, and
 * would take a telling one's place among the first terms.
 */
const NARRATIVE = new Set([
  'work',
  'fine',
  'till',
  'ago',
  'day',
  'morn',
  'today',
  'yesterday',
  'week',
  'sudden',
  'previous',
  'probabl',
  'everyth',
  'someth',
  'anyth',
  'tri',
  'keep',
  'alway',
  'still',
  'help',
  'pleas',
  'issu',
  'problem',
  'thank',
  'anyon',
  'idea',
  'know',
  'want',
  'even',
  'though',
  'came',
  'seem',
  'appear',
  'happen',
  'realli',
  'actual',
  'get',
  'got',
  // Contractions, which the normalizer's dropped apostrophe leaves whole (`I'm` is `im`, `didn't` is
  // `didnt`) where the English stop list would have dropped their parts.
  'im',
  'ive',
  'dont',
  'didnt',
  'doesnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'havent',
  'hasnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'couldnt',
  'theyr',
  'youv',
  'weve',
]);

/** A symptom's terms without the words of its telling (`NARRATIVE`), unless fewer than two would be left. */
export function withoutNarrative(terms: readonly string[]): string[] {
  const telling = terms.filter((term) => !NARRATIVE.has(lexemeOf(term)));
  return telling.length >= 2 ? telling : [...terms];
}
