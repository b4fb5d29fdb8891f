/**
 * What the view builders read, behind one interface with two sources:
 *
 * - `liveViewSource(db)`: one query per call, for a single view (an API read,
 *   a pinned revision, another page);
 * - `preloadViewSource(db, refs)`: the rows of the default views of many
 *   records, fetched up front with a fixed number of queries (each a batch
 *   statement over all the ids, db/queries/views.ts), whatever the number of
 *   records, solutions, outcomes or replies. Anything outside what was
 *   preloaded (another revision, another page) falls back to the live query,
 *   so a view built from either source is the same.
 */
import type { RecordRef } from '../core/types.ts';
import type { TrustSubject } from '../core/trust/subject.ts';
import type { Queryable } from '../db/pool.ts';
import {
  findDiscussion,
  listReplies,
  locateReplies,
  type DiscussionRow,
  type ReplyPlace,
  type ReplyRow,
} from '../db/queries/discussions.ts';
import {
  findIdentity,
  findProfile,
  listRecentContributions,
  type Contribution,
  type Identity,
  type Profile,
} from '../db/queries/identities.ts';
import { listOutcomes, type OutcomeRow } from '../db/queries/outcomes.ts';
import { findProblem, findProblemRevision, type ProblemHead, type ProblemRevision } from '../db/queries/problems.ts';
import {
  findSolution,
  findSolutionRevision,
  listSolutionsOfProblem,
  type SolutionHead,
  type SolutionRevision,
  type SolutionSummary,
} from '../db/queries/solutions.ts';
import {
  listFeedbackEvidence,
  loadTrustSubjects,
  type FeedbackEvidence,
  type TrustRecordType,
} from '../db/queries/trust.ts';
import {
  findCurrentProblemRevisions,
  findCurrentSolutionRevisions,
  findDiscussions,
  findIdentities,
  findProblems,
  findProfiles,
  findSolutions,
  listFirstOutcomes,
  listFirstReplies,
  listFirstSolutions,
  listRecentContributionsOf,
} from '../db/queries/views.ts';

export type FeedbackTarget = 'problem' | 'solution' | 'discussion' | 'reply';

export interface ViewSource {
  problem(id: string): Promise<ProblemHead | null>;
  problemRevision(id: string, revision: number): Promise<ProblemRevision | null>;
  solutionsOfProblem(problemId: string, offset: number, limit: number): Promise<SolutionSummary[]>;
  solution(id: string): Promise<SolutionHead | null>;
  solutionRevision(id: string, revision: number): Promise<SolutionRevision | null>;
  outcomes(solutionId: string, offset: number, limit: number): Promise<OutcomeRow[]>;
  discussion(id: string): Promise<DiscussionRow | null>;
  replies(discussionId: string, offset: number, limit: number): Promise<ReplyRow[]>;
  /** Where each of these replies is (discussion, place in its order, author, time); an id that is no reply is left out. */
  replyPlaces(replyIds: string[]): Promise<Map<string, ReplyPlace>>;
  identity(id: string): Promise<Identity | null>;
  profile(id: string): Promise<Profile | null>;
  recentContributions(identityId: string, limit: number): Promise<Contribution[]>;
  trustSubjects(type: TrustRecordType, ids: string[]): Promise<Map<string, TrustSubject>>;
  /** Feedback evidence on records of `type` (problem, solution, discussion, reply), an empty list for each without. */
  feedbackEvidence(type: FeedbackTarget, ids: string[]): Promise<Map<string, FeedbackEvidence[]>>;
}

export function liveViewSource(db: Queryable): ViewSource {
  return {
    problem: (id) => findProblem(db, id),
    problemRevision: (id, revision) => findProblemRevision(db, id, revision),
    solutionsOfProblem: (id, offset, limit) => listSolutionsOfProblem(db, id, offset, limit),
    solution: (id) => findSolution(db, id),
    solutionRevision: (id, revision) => findSolutionRevision(db, id, revision),
    outcomes: (id, offset, limit) => listOutcomes(db, id, offset, limit),
    discussion: (id) => findDiscussion(db, id),
    replies: (id, offset, limit) => listReplies(db, id, offset, limit),
    replyPlaces: (replyIds) => locateReplies(db, replyIds),
    identity: (id) => findIdentity(db, id),
    profile: (id) => findProfile(db, id),
    recentContributions: (id, limit) => listRecentContributions(db, id, limit),
    trustSubjects: (type, ids) => loadTrustSubjects(db, type, ids),
    feedbackEvidence: (type, ids) => listFeedbackEvidence(db, type, ids),
  };
}

/** Rows by id, remembering which ids were asked for (an id asked for and absent is a record that does not exist). */
class Loaded<T> {
  readonly #rows: Map<string, T>;
  readonly #asked: Set<string>;
  constructor(asked: Iterable<string>, rows: Map<string, T>) {
    this.#asked = new Set(asked);
    this.#rows = rows;
  }
  /** The row, null when asked for and absent, undefined when not preloaded. */
  get(id: string): T | null | undefined {
    return this.#rows.get(id) ?? (this.#asked.has(id) ? null : undefined);
  }
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** What preloading covers: the first page of each inner list, at this page size. */
export interface PreloadShape {
  /** Items per page of the inner lists (solutions, outcomes, replies). */
  limit: number;
  /** Items of an agent's recent contributions. */
  contributions: number;
}

export async function preloadViewSource(db: Queryable, refs: RecordRef[], shape: PreloadShape): Promise<ViewSource> {
  const live = liveViewSource(db);
  const ids = (type: RecordRef['type']) => [...new Set(refs.filter((r) => r.type === type).map((r) => r.id))];
  const solutionIds = ids('solution');
  const discussionIds = ids('discussion');
  const agentIds = ids('agent');
  // The list pages fetch one extra row, as the live queries do, to tell `has_more`.
  const perList = shape.limit + 1;

  // One statement at a time: a batch holds one connection (beside its record locks'), not seven.
  const solutionHeads = await findSolutions(db, solutionIds);
  const discussions = await findDiscussions(db, discussionIds);
  const profiles = await findProfiles(db, agentIds);
  const contributions = await listRecentContributionsOf(db, agentIds, shape.contributions);
  // An agent's page links each recent reply to the page of its discussion that holds it.
  const contributedReplyIds = [...new Set(contributions.filter((c) => c.type === 'reply').map((c) => c.id))];
  const contributedReplies = await locateReplies(db, contributedReplyIds);
  const firstOutcomes = await listFirstOutcomes(db, solutionIds, perList);
  const firstReplies = await listFirstReplies(db, discussionIds, perList);
  const solutionRevisions = await findCurrentSolutionRevisions(db, solutionIds);
  // A solution's view shows its problem's title: those problems are loaded with the problems asked for.
  const problemIds = [...new Set([...ids('problem'), ...solutionHeads.map((s) => s.problem_id)])];
  const problemHeads = await findProblems(db, problemIds);
  const problemRevisions = await findCurrentProblemRevisions(db, problemIds);
  const firstSolutions = await listFirstSolutions(db, ids('problem'), perList);
  // Trust covers the solutions asked for and every solution listed on a problem's first page.
  const trustSolutionIds = [...new Set([...solutionIds, ...firstSolutions.map((s) => s.id)])];
  const authorIds = [...new Set([...problemHeads, ...solutionHeads, ...discussions].map((r) => r.author_id))];
  const replyIds = firstReplies.map((r) => r.id);
  const solutionTrust = await loadTrustSubjects(db, 'solution', trustSolutionIds);
  const problemTrust = await loadTrustSubjects(db, 'problem', ids('problem'));
  const solutionFeedback = await listFeedbackEvidence(db, 'solution', solutionIds);
  const problemFeedback = await listFeedbackEvidence(db, 'problem', ids('problem'));
  const discussionFeedback = await listFeedbackEvidence(db, 'discussion', discussionIds);
  const replyFeedback = await listFeedbackEvidence(db, 'reply', replyIds);
  const identities = await findIdentities(db, authorIds);

  const problems = new Loaded(problemIds, byId(problemHeads));
  const currentProblem = new Map(problemRevisions.map((r) => [r.problem_id, r]));
  const solutions = new Loaded(solutionIds, byId(solutionHeads));
  const currentSolution = new Map(solutionRevisions.map((r) => [r.solution_id, r]));
  const solutionPages = new Loaded(
    ids('problem'),
    groupBy(firstSolutions, (s) => s.problem_id),
  );
  const outcomePages = new Loaded(
    solutionIds,
    groupBy(firstOutcomes, (o) => o.solution_id),
  );
  const replyPages = new Loaded(
    discussionIds,
    groupBy(firstReplies, (r) => r.discussion_id),
  );
  const discussionRows = new Loaded(discussionIds, byId(discussions));
  const identityRows = new Loaded(authorIds, byId(identities));
  const profileRows = new Loaded(agentIds, byId(profiles));
  const contributionLists = new Loaded(
    agentIds,
    groupBy(contributions, (c) => c.identity_id),
  );
  const replyPlacesAsked = new Set(contributedReplyIds);
  const trust = { solution: solutionTrust, problem: problemTrust };
  const trustAsked = { solution: new Set(trustSolutionIds), problem: new Set(ids('problem')) };
  const feedback: Record<FeedbackTarget, Map<string, FeedbackEvidence[]>> = {
    solution: solutionFeedback,
    problem: problemFeedback,
    discussion: discussionFeedback,
    reply: replyFeedback,
  };
  const firstPage = (offset: number, limit: number) => offset === 0 && limit === shape.limit;

  return {
    problem: (id) => rowOf(problems, id, () => live.problem(id)),
    problemRevision: async (id, revision) => {
      const current = currentProblem.get(id);
      return current?.revision === revision ? current : live.problemRevision(id, revision);
    },
    solutionsOfProblem: async (id, offset, limit) =>
      (firstPage(offset, limit) ? pageOf(solutionPages, id) : undefined) ?? live.solutionsOfProblem(id, offset, limit),
    solution: (id) => rowOf(solutions, id, () => live.solution(id)),
    solutionRevision: async (id, revision) => {
      const current = currentSolution.get(id);
      return current?.revision === revision ? current : live.solutionRevision(id, revision);
    },
    outcomes: async (id, offset, limit) =>
      (firstPage(offset, limit) ? pageOf(outcomePages, id) : undefined) ?? live.outcomes(id, offset, limit),
    discussion: (id) => rowOf(discussionRows, id, () => live.discussion(id)),
    replies: async (id, offset, limit) =>
      (firstPage(offset, limit) ? pageOf(replyPages, id) : undefined) ?? live.replies(id, offset, limit),
    // Preloaded for the replies on agents' pages; a discussion asks only for a reply answering one off its
    // page (on a first page, one that sorts after the page), read live.
    replyPlaces: async (wanted) =>
      wanted.every((id) => replyPlacesAsked.has(id))
        ? new Map(
            wanted.flatMap((id) => (contributedReplies.has(id) ? [[id, contributedReplies.get(id)!] as const] : [])),
          )
        : live.replyPlaces(wanted),
    identity: (id) => rowOf(identityRows, id, () => live.identity(id)),
    profile: (id) => rowOf(profileRows, id, () => live.profile(id)),
    recentContributions: async (id, limit) =>
      (limit === shape.contributions ? pageOf(contributionLists, id) : undefined) ??
      live.recentContributions(id, limit),
    trustSubjects: async (type, wanted) => {
      const loaded = trust[type];
      if (wanted.every((id) => loaded.has(id) || preloadedAbsent(type, id))) {
        return new Map(wanted.flatMap((id) => (loaded.has(id) ? [[id, loaded.get(id)!] as const] : [])));
      }
      return live.trustSubjects(type, wanted);
    },
    feedbackEvidence: async (type, wanted) => {
      // Preloaded maps hold an entry (maybe empty) for every id they were asked about.
      const loaded = feedback[type];
      if (wanted.every((id) => loaded.has(id))) return new Map(wanted.map((id) => [id, loaded.get(id)!]));
      return live.feedbackEvidence(type, wanted);
    },
  };

  /** Trust was loaded for these ids; a missing subject means the record does not exist. */
  function preloadedAbsent(type: TrustRecordType, id: string): boolean {
    return trustAsked[type].has(id);
  }
}

async function rowOf<T>(loaded: Loaded<T>, id: string, fetch: () => Promise<T | null>): Promise<T | null> {
  const row = loaded.get(id);
  return row === undefined ? fetch() : row;
}

/** A preloaded list: the rows, an empty list when the record was preloaded and has none, undefined when not preloaded. */
function pageOf<T>(lists: Loaded<T[]>, id: string): T[] | undefined {
  const rows = lists.get(id);
  return rows === undefined ? undefined : (rows ?? []);
}
