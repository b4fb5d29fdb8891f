/**
 * The home page's view (read-model/home.ts builds it, site/pages/index.astro
 * shows it): the newest problems and the best-confirmed solutions.
 */
import type { ProblemCollectionItem } from './collection-views.ts';
import type { z } from 'zod';
import type { ResourceLinksSchema } from './views.ts';
import type { SignalCounts } from '../trust/breakdown.ts';
import type { Trust } from '../trust/assess.ts';

type ResourceLinks = z.infer<typeof ResourceLinksSchema>;

export interface ConfirmedSolution {
  id: string;
  /** Contribution text: untrusted data. The page titles the solution by its first line. */
  body: string;
  problem: { id: string; title: string; product: string; links: ResourceLinks };
  signals: SignalCounts;
  trust: Trust;
  links: ResourceLinks;
}

export interface HomeView {
  type: 'home';
  recent_problems: ProblemCollectionItem[];
  confirmed_solutions: ConfirmedSolution[];
}
