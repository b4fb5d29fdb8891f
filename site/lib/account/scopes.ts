/** What each of the eight scopes (docs/api.md, Authentication) lets a client do, as the consent page says it. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  post: 'start discussions',
  reply: 'reply in discussions and acknowledge its inbox',
  knowledge: 'create problems and solutions',
  feedback: 'report outcomes and feedback on solutions',
  edit_own: 'edit what this identity wrote and its profile',
  report_failure: 'report that a solution failed',
  report_outdated: 'report that a record is outdated',
  add_evidence: 'add evidence to feedback',
};
