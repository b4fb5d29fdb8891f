/** create_discussion, reply, acknowledge_inbox and report_feedback, inside the commit transaction. */
import { errorInfo } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { CommitJob } from '../core/queue-contract.ts';
import { CreateDiscussionSchema, ReplySchema, ReportFeedbackSchema } from '../core/schemas/community.ts';
import { recordLinks, type RecordRef } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import { countReply, findDiscussion, findReply, insertDiscussion, insertReply } from '../db/queries/discussions.ts';
import { insertFeedbackReport } from '../db/queries/feedback.ts';
import { findTargetRevision } from '../db/queries/trust.ts';
import { acknowledgeInboxItem, insertInboxItem } from '../db/queries/inbox.ts';
import { findProblem } from '../db/queries/problems.ts';
import { findSolution } from '../db/queries/solutions.ts';
import { agentRef, fail, notFound, type HandlerResult } from './handler-result.ts';
import { refreshTrust } from './trust.ts';

export async function createDiscussion(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = CreateDiscussionSchema.parse(job.body);
  const id = newId('discussion', at.getTime());
  await insertDiscussion(tx, {
    id,
    authorId: job.identityId,
    title: body.title,
    body: body.body,
    product: body.product ?? null,
    at,
  });
  const ref: RecordRef = { type: 'discussion', id };
  return {
    ok: true,
    resource: { type: 'discussion', id, revision: null, links: recordLinks(ref) },
    change: { resourceType: 'discussion', resourceId: id, revision: null, affects: [ref, agentRef(job.identityId)] },
  };
}

/**
 * A reply notifies the discussion's author and the replied-to reply's author,
 * never the replier; one person in both roles gets one item.
 */
export async function reply(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = ReplySchema.parse(job.body);
  const discussionId = job.targetId ?? '';
  // The row lock orders concurrent replies' reply_count updates.
  const discussion = await findDiscussion(tx, discussionId, true);
  if (!discussion) return notFound('discussion', discussionId);
  let parentAuthor: string | null = null;
  if (body.in_reply_to !== undefined) {
    const parent = await findReply(tx, body.in_reply_to);
    if (!parent || parent.discussion_id !== discussionId) {
      return fail(errorInfo('not_in_discussion', { discussionId }, { field: 'in_reply_to' }));
    }
    parentAuthor = parent.author_id;
  }
  const id = newId('reply', at.getTime());
  await insertReply(tx, {
    id,
    discussionId,
    authorId: job.identityId,
    body: body.body,
    inReplyTo: body.in_reply_to ?? null,
    at,
  });
  await countReply(tx, discussionId, at);
  const notify = new Map<string, 'reply_to_your_discussion' | 'reply_to_your_reply'>();
  if (parentAuthor) notify.set(parentAuthor, 'reply_to_your_reply');
  notify.set(discussion.author_id, 'reply_to_your_discussion');
  notify.delete(job.identityId);
  for (const [identityId, reason] of notify) {
    await insertInboxItem(tx, { id: newId('inbox', at.getTime()), identityId, replyId: id, discussionId, reason, at });
  }
  const ref: RecordRef = { type: 'discussion', id: discussionId };
  return {
    ok: true,
    resource: { type: 'reply', id, revision: null, links: recordLinks(ref) },
    change: { resourceType: 'reply', resourceId: id, revision: null, affects: [ref, agentRef(job.identityId)] },
  };
}

export async function acknowledgeInbox(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const id = job.targetId ?? '';
  // Another identity's item answers exactly like a missing one: nothing leaks.
  if (!(await acknowledgeInboxItem(tx, job.identityId, id, at))) return notFound('inbox_item', id);
  return {
    ok: true,
    resource: { type: 'inbox_item', id, revision: null, links: null },
    change: { resourceType: 'inbox_item', resourceId: id, revision: null, affects: [] },
  };
}

/** Whether the feedback target exists, and which projection shows it. */
async function feedbackTarget(tx: Queryable, type: string, id: string): Promise<RecordRef | null> {
  switch (type) {
    case 'problem':
      return (await findProblem(tx, id)) ? { type: 'problem', id } : null;
    case 'solution':
      return (await findSolution(tx, id)) ? { type: 'solution', id } : null;
    case 'discussion':
      return (await findDiscussion(tx, id)) ? { type: 'discussion', id } : null;
    case 'reply': {
      const found = await findReply(tx, id);
      return found ? { type: 'discussion', id: found.discussion_id } : null;
    }
    default:
      return null;
  }
}

/** A solution's trust also shows in its problem's list of solutions. */
async function feedbackShownOn(tx: Queryable, shownOn: RecordRef): Promise<RecordRef[]> {
  if (shownOn.type !== 'solution') return [shownOn];
  const solution = (await findSolution(tx, shownOn.id))!;
  return [shownOn, { type: 'problem', id: solution.problem_id }];
}

export async function reportFeedback(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = ReportFeedbackSchema.parse(job.body);
  const shownOn = await feedbackTarget(tx, body.target.type, body.target.id);
  if (!shownOn) return notFound(body.target.type, body.target.id, 'target.id');
  const id = newId('feedback', at.getTime());
  const { type, id: targetId } = body.target;
  await insertFeedbackReport(tx, {
    id,
    identityId: job.identityId,
    kind: body.kind,
    targetType: type,
    targetId,
    targetRevision: await findTargetRevision(tx, type, targetId),
    body: body.body,
    evidence: body.evidence ?? [],
    at,
  });
  // Feedback is evidence on its record; on a problem or solution it may also dispute it.
  const followUps = type === 'problem' || type === 'solution' ? await refreshTrust(tx, { type, id: targetId }, at) : [];
  return {
    ok: true,
    resource: { type: 'feedback', id, revision: null, links: recordLinks(shownOn) },
    change: { resourceType: 'feedback', resourceId: id, revision: null, affects: await feedbackShownOn(tx, shownOn) },
    followUps,
  };
}
