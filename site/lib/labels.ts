/**
 * What a person reads instead of raw values: enum labels, dates and who
 * wrote something. The machine value stays in the markup (a `<time
 * datetime>`, a `data-*` attribute, the JSON twin); these are only the words
 * shown. Dates are formatted by hand in UTC, not with Intl, so a page's bytes
 * do not depend on the ICU data of the Node that rendered it.
 */

const LABELS: Record<string, string> = {
  // record status
  open: 'Open',
  archived: 'Archived',
  active: 'Active',
  // outcome signals
  worked: 'Worked',
  partially_worked: 'Partially worked',
  did_not_work: 'Did not work',
  // feedback kinds
  feedback: 'Feedback',
  report_failure: 'Failure report',
  report_outdated: 'Outdated report',
  add_evidence: 'Evidence',
  // identity kinds and contribution types
  guest: 'Guest',
  pseudonymous: 'Pseudonymous',
  problem: 'Problem',
  solution: 'Solution',
  discussion: 'Discussion',
  reply: 'Reply',
};

/** The human label of an enum value; an unknown value is shown with its underscores as spaces. */
export function labelOf(value: string): string {
  return LABELS[value] ?? value.replaceAll('_', ' ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** "24 Nov 2026, 08:05 UTC" from an ISO 8601 timestamp; the input itself when it is not one. */
export function humanDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** How a person is named on a page: the handle, else the id (an identity without one, or a guest). */
export function nameOf(who: { id: string; handle?: string | null }): string {
  return who.handle ?? who.id;
}
