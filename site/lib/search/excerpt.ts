/**
 * Pagefind's excerpts are a narrow kind of HTML: the page's text with `<` and
 * `>` escaped as `&lt;` and `&gt;` (Pagefind 1.6 escapes those two and
 * nothing else, not even `&`), and each matched word wrapped in
 * `<mark>…</mark>`. Record text is untrusted, so /search never gives an
 * excerpt to innerHTML: this splits it into plain-text parts, and the page
 * builds text nodes and <mark> elements from them. A contribution cannot
 * forge a <mark>: its own `<` arrives escaped.
 *
 * One loss, by design: a contribution that contains the literal text `&lt;`
 * shows as `<` in the excerpt (Pagefind's escaping cannot be inverted there).
 * The record page itself shows it exactly.
 */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

export function parseExcerpt(excerpt: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let mark = false;
  for (const piece of excerpt.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      mark = piece === '<mark>';
    } else if (piece !== '') {
      parts.push({ text: piece.replaceAll('&lt;', '<').replaceAll('&gt;', '>'), mark });
    }
  }
  return parts;
}

/**
 * Only our own record pages are linked from results, whatever the index
 * says, at the URL they are served at: the base's shards are indexed from
 * the pages' files, whose URLs end in `.html` (static-search/build-index.ts,
 * `servedUrl`).
 */
export function recordPath(url: string): string | null {
  const match = /^(\/(?:problems|solutions|discussions)\/[a-z]+_[0-9a-z]+)(?:\.html)?$/.exec(url);
  return match ? match[1]! : null;
}
