/**
 * The home page's view: the newest problems (the first page of the problem
 * collection, one statement) and the best-confirmed solutions, re-ranked
 * with their decayed trust as of `now` (core/trust/standing.ts), so the home
 * page orders them as a problem page would.
 */
import type { HomeView } from '../core/schemas/home-view.ts';
import { recordLinks } from '../core/types.ts';
import { byStanding, solutionStanding } from '../core/trust/standing.ts';
import type { Queryable } from '../db/pool.ts';
import { listConfirmedSolutions } from '../db/queries/collections.ts';
import { buildCollectionView } from './collection.ts';
import { buildSolutionListTrust } from './trust.ts';
import { liveViewSource } from './view-source.ts';

export const HOME_RECENT_PROBLEMS = 8;
export const HOME_CONFIRMED_SOLUTIONS = 5;
/** Candidates read by stored bound before decay re-ranks them. */
const CANDIDATES = 20;

export async function buildHomeView(db: Queryable, now = new Date()): Promise<HomeView> {
  const [recent, rows] = await Promise.all([
    buildCollectionView(db, 'problem', { page: 1, limit: HOME_RECENT_PROBLEMS, product: undefined }),
    listConfirmedSolutions(db, CANDIDATES),
  ]);
  const facts = await buildSolutionListTrust(
    liveViewSource(db),
    rows.map((r) => r.id),
    now,
  );
  const confirmed = rows
    .filter((r) => facts.has(r.id))
    .map((r) => ({
      id: r.id,
      body: r.body,
      problem: {
        id: r.problem_id,
        title: r.problem_title,
        product: r.product,
        links: recordLinks({ type: 'problem', id: r.problem_id }),
      },
      ...facts.get(r.id)!,
      links: recordLinks({ type: 'solution', id: r.id }),
    }))
    .filter((s) => solutionStanding(s.trust) === 'confirmed')
    .sort(byStanding)
    .slice(0, HOME_CONFIRMED_SOLUTIONS);
  return { type: 'home', recent_problems: recent.items as HomeView['recent_problems'], confirmed_solutions: confirmed };
}
