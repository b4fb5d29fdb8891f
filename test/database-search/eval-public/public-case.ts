/**
 * One public case of the search evaluation: an error literal as it was
 * posted, with the address it was posted at. The literal is stored as a
 * problem exactly as posted; title, body, solution and the symptom query
 * are ours. Its own module, so the per-product files and
 * ../eval-cases-public.ts (which gathers them) import it without a cycle.
 */
export interface PublicCase {
  id: string;
  /** Where the literal was posted. */
  source: string;
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
  /** The symptom in an agent's own words. */
  symptom: string;
}
