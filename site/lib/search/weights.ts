/**
 * How much a page's words weigh in the browser search (Pagefind's
 * `data-pagefind-weight`, 0 to 10; plain text is 1). The title and the
 * error literal say what a record is about, so they outweigh its body, as
 * in the API's ranking; and the record's standing (core/trust/standing.ts)
 * scales all three, so a confirmed record outranks an unconfirmed one on the
 * same words and a disputed one sinks, still findable. A discussion answers
 * nothing by itself: it weighs below an unconfirmed problem.
 */
import type { Standing } from '../../../core/trust/standing.ts';

export interface SearchWeights {
  title: number;
  literal: number;
  body: number;
}

const WEIGHTS: Record<Standing | 'discussion', SearchWeights> = {
  confirmed: { title: 10, literal: 9, body: 1 },
  unconfirmed: { title: 6, literal: 5, body: 0.7 },
  discussion: { title: 4, literal: 3, body: 0.5 },
  disputed: { title: 2, literal: 2, body: 0.3 },
};

export function searchWeights(standing: Standing | 'discussion'): SearchWeights {
  return WEIGHTS[standing];
}

/** `data-pagefind-weight`'s value. */
export const weight = (n: number) => String(n);
