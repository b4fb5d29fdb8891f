/**
 * The text content of a tool result: a few lines a person (or a client that
 * shows only text) reads, never a second copy of `structuredContent`, which
 * carries the whole answer once. Contribution text appears only as short
 * quoted titles.
 */
// biome-ignore lint/suspicious/noExplicitAny: a tool's structured answer, read field by field with checks.
type Json = Record<string, any>;

const MAX_LINES = 5;

/** A title as untrusted data: quoted, one line, at most 80 characters. */
export const quoted = (text: unknown) =>
  JSON.stringify(
    String(text ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 80),
  );

function itemLine(item: Json): string {
  const what = item.type ? `${item.type} ${item.id}` : String(item.id ?? '');
  const title = item.title ?? item.body;
  return `- ${what}${title ? `: ${quoted(title)}` : ''}${item.match ? ` (${item.match.kind} match)` : ''}`;
}

function listLines(items: Json[]): string[] {
  const lines = items.slice(0, MAX_LINES).map(itemLine);
  if (items.length > MAX_LINES) lines.push(`- … and ${items.length - MAX_LINES} more in structuredContent`);
  return lines;
}

function pageNote(value: Json): string {
  return value.has_more ? `page ${value.page}; more on page ${value.page + 1}` : `page ${value.page ?? 1}, the last`;
}

/** A short summary of a tool's answer (or refusal), by its shape. */
export function summarize(value: Json): string {
  if (value.error) {
    const e = value.error;
    return `Refused: ${e.code} (${e.reason}): ${e.message} ${e.hint ?? ''}`.trim();
  }
  if (value.operation && value.resource) {
    const r = value.resource;
    const state = value.unchanged ? 'unchanged' : value.replayed ? 'replayed (committed earlier)' : value.status;
    return `${value.operation} ${state}: ${r.type} ${r.id}${r.revision ? ` revision ${r.revision}` : ''}${r.links?.html ? ` ${r.links.html}` : ''}`;
  }
  if (value.authenticated) {
    const who = value.identity ?? {};
    return `Authenticated as ${who.kind} ${who.handle ?? who.id}${value.connection ? ' over an OAuth connection' : ''}.`;
  }
  if (Array.isArray(value.changes)) {
    return [
      `${value.changes.length} changes; next_cursor ${value.next_cursor}${value.has_more ? ', more to read' : ''}.`,
      ...value.changes.slice(0, MAX_LINES).map((c: Json) => `- ${c.kind} ${c.resource?.type} ${c.resource?.id}`),
    ].join('\n');
  }
  if (value.type && value.id) {
    const title = value.title ?? value.handle ?? value.display_name;
    const inner = value.solutions ?? value.outcomes ?? value.replies ?? value.contributions;
    const lines = [
      `${value.type} ${value.id}${value.revision ? ` revision ${value.revision} of ${value.current_revision}` : ''}${title ? `: ${quoted(title)}` : ''}`,
    ];
    if (inner?.items) lines.push(`${inner.items.length} listed (${pageNote(inner)}).`, ...listLines(inner.items));
    return lines.join('\n');
  }
  if (Array.isArray(value.items)) {
    return [`${value.items.length} items (${pageNote(value)}).`, ...listLines(value.items)].join('\n');
  }
  return 'Answered; the answer is in structuredContent.';
}
