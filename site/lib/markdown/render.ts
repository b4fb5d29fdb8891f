/**
 * Contribution Markdown as HTML for the record pages: remark parses it
 * (CommonMark with GitHub's tables, task lists, strikethrough and
 * autolinks; text that could hold none of those is parsed without them,
 * which gives the same tree faster), rehype turns it into HTML, rehype-sanitize keeps only
 * GitHub's safe subset, then code blocks are highlighted. The text stays
 * inert:
 *
 * - raw HTML in the text is shown as the text it is, never parsed as markup;
 * - the sanitizer drops every element, attribute and URL scheme outside its
 *   allow-list (no scripts, event handlers, `javascript:` links, styles);
 * - images become links (the pages load nothing from other origins), task
 *   list checkboxes become ☑ and ☐;
 * - links carry `rel="nofollow ugc noopener"`;
 * - headings are moved under the heading the field sits beneath, so a
 *   contribution cannot break the page's outline.
 *
 * The JSON and Markdown projections keep the source text; only HTML pages
 * render it.
 */
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { LRUCache } from 'lru-cache';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import { highlightCode } from './highlight.ts';

export const LINK_REL = ['nofollow', 'ugc', 'noopener'];

/** Raw HTML (block or inline) becomes its own text, escaped on output. */
function rawHtmlAsText() {
  return (tree: MdastRoot) => {
    visit(tree, 'html', (node, index, parent) => {
      if (!parent || index === undefined) return;
      parent.children[index] = { type: 'text', value: node.value } as never;
    });
  };
}

/** GitHub's schema, without images (turned into links first) and without ids (a contribution cannot name anchors of the page). */
const SCHEMA = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((t) => t !== 'img'),
  clobber: [],
  attributes: {
    ...defaultSchema.attributes,
    '*': (defaultSchema.attributes?.['*'] ?? []).filter((a) => a !== 'id' && a !== 'name'),
  },
};

function imagesAsLinks() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName !== 'img' || !parent || index === undefined) return;
      const alt = typeof node.properties.alt === 'string' && node.properties.alt ? node.properties.alt : 'image';
      const link: Element = {
        type: 'element',
        tagName: 'a',
        properties: { href: node.properties.src },
        children: [{ type: 'text', value: `Image: ${alt}` }],
      };
      parent.children[index] = link;
    });
  };
}

/**
 * Footnotes keep their numbers and their list, without links: the links and
 * `aria-describedby` point at ids, which no contribution may set (they would
 * name the page's anchors, and two texts on one page would share them), so
 * they led nowhere and described nothing.
 */
function footnotesWithoutLinks() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node, index, parent) => {
      delete node.properties.ariaDescribedBy;
      if (node.tagName !== 'a' || !parent || index === undefined) return;
      if (node.properties.dataFootnoteRef !== undefined) {
        parent.children.splice(index, 1, ...node.children);
        return index;
      }
      if (node.properties.dataFootnoteBackref !== undefined) {
        parent.children.splice(index, 1);
        return index;
      }
    });
  };
}

/** A task list's checkboxes become ☑ and ☐: a disabled input without a label is an accessibility fault, and a form control has no place in quoted text. */
function checkboxesAsText() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName !== 'input' || !parent || index === undefined) return;
      parent.children[index] = { type: 'text', value: node.properties.checked ? '☑' : '☐' };
    });
  };
}

/** A table scrolls inside itself when wider than the screen (site.css); tabindex lets a keyboard scroll it, as the page's own tables do. */
function scrollableTables() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node) => {
      if (node.tagName === 'table') node.properties.tabIndex = 0;
    });
  };
}

function linkRel() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node) => {
      if (node.tagName === 'a' && node.properties.href !== undefined) node.properties.rel = LINK_REL;
    });
  };
}

/** Heading levels used in the text, in order, map to `base`, `base + 1`, … (never past h6, never skipping a level). */
function headingsFrom(base: number) {
  return (tree: HastRoot) => {
    const levels = new Set<number>();
    visit(tree, 'element', (node) => {
      const m = /^h([1-6])$/.exec(node.tagName);
      if (m) levels.add(Number(m[1]));
    });
    const rank = [...levels].sort((a, b) => a - b);
    visit(tree, 'element', (node) => {
      const m = /^h([1-6])$/.exec(node.tagName);
      if (m) node.tagName = `h${Math.min(6, base + rank.indexOf(Number(m[1])))}`;
    });
  };
}

/** `<pre><code class="language-x">` (what the sanitizer let through) → Shiki's highlighted `<pre>`. */
function highlightBlocks() {
  return async (tree: HastRoot) => {
    const blocks: { parent: { children: ElementContent[] }; index: number; code: string; lang: string | undefined }[] =
      [];
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName !== 'pre' || !parent || index === undefined) return;
      const code = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
      if (!code) return;
      const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
      const lang = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
      const text = code.children
        .map((c) => (c.type === 'text' ? c.value : ''))
        .join('')
        .replace(/\n$/, '');
      blocks.push({ parent: parent as { children: ElementContent[] }, index, code: text, lang });
      return SKIP;
    });
    for (const b of blocks) b.parent.children[b.index] = await highlightCode(b.code, b.lang);
  };
}

/**
 * Whether GitHub's extensions could find anything in `text`: each needs a
 * character of its own (a table `|`, strikethrough `~`, task list items and
 * footnotes `[`, an email `@`) or a web address (`www.`, `://`). Text with
 * none of them parses the same without the extensions, which otherwise are
 * tried at every line and word and cost twice the parse itself.
 */
export function mayUseGfm(text: string): boolean {
  return /[|~[@]|www\.|:\/\//i.test(text);
}

/** Contribution `text` as the renderer parses it (its tree, before any transform), for what reads its words. */
export function parseMarkdown(text: string): MdastRoot {
  return markdownProcessor(3, mayUseGfm(text)).parse(text);
}

const processors = new Map<string, ReturnType<typeof build>>();

/** The pipeline for a heading base, with GitHub's extensions or without; built once each. */
export function markdownProcessor(headingBase: number, gfm: boolean): ReturnType<typeof build> {
  const variant = `${headingBase}${gfm ? ' gfm' : ''}`;
  let processor = processors.get(variant);
  if (!processor) processors.set(variant, (processor = build(headingBase, gfm)));
  return processor;
}

function build(headingBase: number, gfm: boolean) {
  const parser = unified().use(remarkParse);
  return (gfm ? parser.use(remarkGfm) : parser)
    .use(rawHtmlAsText)
    .use(remarkRehype)
    .use(imagesAsLinks)
    .use(footnotesWithoutLinks)
    .use(rehypeSanitize, SCHEMA)
    .use(checkboxesAsText)
    .use(scrollableTables)
    .use(linkRel)
    .use(headingsFrom, headingBase)
    .use(highlightBlocks)
    .use(rehypeStringify)
    .freeze();
}

/**
 * Rendered text by heading base and text. Parsing is most of a page's render
 * time, and a record's texts are rendered again each time its page is (a
 * problem page whenever one of its solutions gets an outcome), so the HTML of
 * recent texts is kept, bounded by its size.
 */
const rendered = new LRUCache<string, string>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (html, key) => html.length + key.length,
});

/**
 * Characters of prose that no Markdown construct starts with inside a line
 * (ASCII letters, digits, space and ,.;:?!'"()/%$-): text made only of
 * these, with the line rules of `plainParagraphs`, is paragraphs of text.
 */
const PROSE = /^[A-Za-z0-9 \n,.;:?!'"()/%$-]*$/;

/**
 * The paragraphs of `text` when it is plain prose, exactly as remark parses
 * them; undefined when it may hold anything else. No line may begin with a
 * space (an indented code block, a continuation's stripped indent), a digit
 * (an ordered list) or `-` (a list, a rule, a heading's underline), nor end
 * with a space inside a paragraph (a hard break); blank lines are empty.
 * Then each run of lines is one paragraph whose text is its lines, the last
 * one's trailing spaces dropped as remark drops them.
 * test/site/markdown-plain.test.ts holds this to remark's own parse.
 */
export function plainParagraphs(text: string): string[] | undefined {
  if (!PROSE.test(text) || mayUseGfm(text)) return undefined;
  const paragraphs: string[] = [];
  let lines: string[] = [];
  const end = () => {
    if (lines.length === 0) return;
    // trimEnd, not / +$/: the regex backtracks over every run of spaces inside the line, quadratic in it.
    lines[lines.length - 1] = lines[lines.length - 1]!.trimEnd();
    paragraphs.push(lines.join('\n'));
    lines = [];
  };
  const all = text.split('\n');
  for (const [i, line] of all.entries()) {
    if (line === '') {
      end();
      continue;
    }
    const first = line.charCodeAt(0);
    if (first === 32 || first === 45 || (first >= 48 && first <= 57)) return undefined;
    const next = all[i + 1];
    if (line.endsWith(' ') && next !== undefined && next !== '') return undefined;
    lines.push(line);
  }
  end();
  return paragraphs;
}

/** The tree remark makes of plain paragraphs (`plainParagraphs`), without parsing them character by character. */
function paragraphTree(paragraphs: string[]): MdastRoot {
  return {
    type: 'root',
    children: paragraphs.map((value) => ({ type: 'paragraph', children: [{ type: 'text', value }] })),
  };
}

/**
 * HTML of `text` through the whole pipeline. Plain prose skips only the
 * parse, most of the time spent on it (its tree is built directly), unless
 * `alwaysParse`; every other step, the sanitizer included, runs as for any
 * text.
 */
export async function markdownHtml(text: string, headingBase: number, alwaysParse = false): Promise<string> {
  const plain = alwaysParse ? undefined : plainParagraphs(text);
  const processor = markdownProcessor(headingBase, plain === undefined && mayUseGfm(text));
  if (plain === undefined) return String(await processor.process(text));
  return String(processor.stringify(await processor.run(paragraphTree(plain))));
}

/** HTML of contribution `text`; its headings start at `h{headingBase}`. */
export async function renderMarkdown(text: string, headingBase = 3): Promise<string> {
  const key = `${headingBase}\n${text}`;
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  const html = await markdownHtml(text, headingBase);
  rendered.set(key, html);
  return html;
}
