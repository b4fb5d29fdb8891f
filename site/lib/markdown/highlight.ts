/**
 * Code blocks of contribution Markdown, highlighted by Shiki on the server.
 * The page's Content-Security-Policy allows no inline style, so each token's
 * colours become classes (`sl-…` for the light theme, `sd-…` for the dark
 * one) and the stylesheet of those classes is built from the same two themes
 * (`codeThemeCss`, served as /code-theme.css). A colour the stylesheet lacks
 * just shows as plain text.
 */
import type { Element, ElementContent, Root } from 'hast';
import {
  bundledThemes,
  createHighlighter,
  type BundledLanguage,
  type Highlighter,
  type ThemeRegistrationRaw,
} from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/** Languages people paste into problems and solutions; any other fence shows as plain text. */
const LANGUAGES: BundledLanguage[] = [
  'bash',
  'shellscript',
  'powershell',
  'bat',
  'javascript',
  'typescript',
  'jsx',
  'tsx',
  'json',
  'jsonc',
  'yaml',
  'toml',
  'ini',
  'xml',
  'html',
  'css',
  'python',
  'ruby',
  'php',
  'go',
  'rust',
  'java',
  'kotlin',
  'swift',
  'c',
  'cpp',
  'csharp',
  'sql',
  'diff',
  'docker',
  'nginx',
  'make',
  'lua',
  'perl',
  'r',
  'scala',
  'elixir',
  'haskell',
  'graphql',
  'hcl',
  'proto',
];

let highlighter: Promise<Highlighter> | undefined;
/**
 * Shiki's JavaScript regex engine, not its WebAssembly one: no WASM to load in
 * every renderer, and `forgiving` so a grammar rule it cannot translate only
 * leaves that token plain instead of failing the page.
 */
const loadHighlighter = () =>
  (highlighter ??= createHighlighter({
    themes: Object.values(THEMES),
    langs: LANGUAGES,
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  }));

const token = (value: string) => value.toLowerCase().replace(/[^0-9a-z]/g, '');

/** `--shiki-light:#24292E;--shiki-dark-font-style:italic` → `sl-24292e sd-i`. */
function classesOf(style: string): string[] {
  const classes: string[] = [];
  for (const declaration of style.split(';')) {
    const m = /^--shiki-(light|dark)(-bg|-font-style|-font-weight|-text-decoration)?:(.+)$/.exec(declaration.trim());
    if (!m) continue;
    const prefix = m[1] === 'light' ? 'sl' : 'sd';
    if (m[2] === '-bg') continue;
    if (!m[2]) classes.push(`${prefix}-${token(m[3]!)}`);
    else if (m[3]!.includes('italic')) classes.push(`${prefix}-i`);
    else if (m[3]!.includes('bold')) classes.push(`${prefix}-b`);
    else if (m[3]!.includes('underline')) classes.push(`${prefix}-u`);
  }
  return classes;
}

function styleToClasses(node: ElementContent): void {
  if (node.type !== 'element') return;
  const style = node.properties.style;
  if (typeof style === 'string') {
    const existing = node.properties.className ?? node.properties.class;
    const list = Array.isArray(existing)
      ? existing.map(String)
      : typeof existing === 'string'
        ? existing.split(' ')
        : [];
    delete node.properties.style;
    delete node.properties.class;
    node.properties.className = [...list, ...classesOf(style)];
  }
  for (const child of node.children) styleToClasses(child);
}

/** Whether `lang` (a fence's info word) is one the highlighter knows, by name or alias. */
async function knownLanguage(lang: string | undefined): Promise<string> {
  const h = await loadHighlighter();
  if (!lang) return 'text';
  const wanted = lang.toLowerCase();
  return h.getLoadedLanguages().includes(wanted) ? wanted : 'text';
}

/** A `<pre>` of highlighted `code`, coloured by classes only. */
export async function highlightCode(code: string, lang: string | undefined): Promise<Element> {
  const h = await loadHighlighter();
  const root = h.codeToHast(code, { lang: await knownLanguage(lang), themes: THEMES, defaultColor: false }) as Root;
  const pre = root.children.find((n): n is Element => n.type === 'element' && n.tagName === 'pre');
  if (!pre) throw new Error('Shiki returned no <pre>');
  styleToClasses(pre);
  return pre;
}

function colorsOf(theme: ThemeRegistrationRaw): { fg: string; bg: string; colors: Set<string> } {
  const colors = new Set<string>();
  for (const rule of theme.tokenColors ?? theme.settings ?? []) {
    const fg = rule.settings?.foreground;
    if (fg) colors.add(fg);
  }
  const fg = theme.colors?.['editor.foreground'] ?? theme.fg ?? '#000000';
  const bg = theme.colors?.['editor.background'] ?? theme.bg ?? '#ffffff';
  colors.add(fg);
  return { fg, bg, colors };
}

/** The stylesheet of every class `highlightCode` can give, from the two themes. */
export async function codeThemeCss(): Promise<string> {
  const out = ['/* Token colours of highlighted code, built from the Shiki themes the pages use. */'];
  for (const [scheme, name] of Object.entries(THEMES)) {
    const theme = (await bundledThemes[name]()).default as ThemeRegistrationRaw;
    const { fg, bg, colors } = colorsOf(theme);
    const p = scheme === 'light' ? 'sl' : 'sd';
    const rules = [
      `pre.shiki{color:${fg};background:${bg}}`,
      ...[...colors].sort().map((c) => `.${p}-${token(c)}{color:${c}}`),
      `.${p}-i{font-style:italic}`,
      `.${p}-b{font-weight:700}`,
      `.${p}-u{text-decoration:underline}`,
    ];
    out.push(scheme === 'light' ? rules.join('\n') : `@media (prefers-color-scheme: dark){\n${rules.join('\n')}\n}`);
  }
  return `${out.join('\n')}\n`;
}
