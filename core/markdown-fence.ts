/**
 * Markdown projection helpers. Contribution text is fenced: each block opens
 * with a backtick run longer than any run inside it, so no contribution can
 * close its fence and forge headings, links or instructions outside it.
 */
export function fence(text: string, info = 'text'): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${text.replace(/\r\n?/g, '\n')}\n${ticks}`;
}

/** A labelled, fenced contribution field; absent values are said plainly. */
export function field(label: string, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return `${label}: (none)\n`;
  return `${label} (untrusted contribution text):\n\n${fence(value)}\n`;
}
