/**
 * The layering of .dependency-cruiser.mjs for `.astro` files, which
 * dependency-cruiser does not read. Each file's frontmatter (the TypeScript
 * between its opening `---` fences) is parsed with swc, the parser
 * dependency-cruiser uses here, and every `import`, `export … from` and
 * `import()` is held to the same LAYERS and harness rule; so is every
 * `<script src>` of the template, which Astro bundles like an import.
 *
 *   node scripts/check-astro-layers.ts [--root DIR] [folder …]
 *
 * Prints one line per violation, `rule: from → to`, and exits 1; or prints
 * that none was found. Run by `npm run check:layers` and test/layering.test.ts.
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSync } from '@swc/core';
import { HARNESS, LAYERS } from '../.dependency-cruiser.mjs';

type Layers = Record<string, string[]>;

/** The module specifiers an `.astro` file imports: frontmatter imports and the template's `<script src>`. */
export function astroImports(source: string): string[] {
  const specifiers: string[] = [];
  const fence = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  if (fence) {
    // Frontmatter may `return` at its top level (Astro runs it as a function body), which a module may not:
    // as `throw` it parses, and no import changes.
    const code = fence[1]!.replace(/\breturn\s*;/g, 'void 0;').replace(/\breturn\b/g, 'throw');
    const program = parseSync(code, { syntax: 'typescript', tsx: false });
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as {
        type?: string;
        source?: { value?: string };
        callee?: { type?: string };
        arguments?: { expression?: { type?: string; value?: string } }[];
      };
      if (
        (n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') &&
        n.source?.value
      ) {
        specifiers.push(n.source.value);
      }
      const argument = n.arguments?.[0]?.expression;
      if (
        n.type === 'CallExpression' &&
        n.callee?.type === 'Import' &&
        argument?.type === 'StringLiteral' &&
        argument.value
      ) {
        specifiers.push(argument.value);
      }
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) value.forEach(visit);
        else if (value && typeof value === 'object') visit(value);
      }
    };
    visit(program);
  }
  const template = fence ? source.slice(fence[0].length) : source;
  for (const match of template.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/g)) specifiers.push(match[1]!);
  return specifiers;
}

/** Every `.astro` file under `dir`, as paths relative to `root`. */
function astroFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...astroFiles(root, relative));
    else if (entry.isFile() && entry.name.endsWith('.astro')) found.push(relative);
  }
  return found;
}

/** The violations of `folders`' `.astro` files under `root`, as `rule: from → to` lines. */
export function astroLayerViolations(
  root: string,
  folders: string[],
  layers: Layers = LAYERS,
  harness: string[] = HARNESS,
): string[] {
  const known = [...Object.keys(layers), ...harness];
  const violations: string[] = [];
  for (const file of folders.flatMap((folder) => astroFiles(root, folder))) {
    const from = file.split('/')[0]!;
    for (const specifier of astroImports(readFileSync(path.join(root, file), 'utf8'))) {
      // Packages and absolute URLs are not the repository's folders.
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const to = target.split('/')[0]!;
      if (to === from || !known.includes(to)) continue;
      if (harness.includes(to) && !harness.includes(from))
        violations.push(`nothing-imports-the-harness: ${file} → ${target}`);
      else if (layers[from] && !layers[from].includes(to))
        violations.push(`${from}-imports-only-its-layers: ${file} → ${target}`);
    }
  }
  return violations;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    options: { root: { type: 'string', default: '.' } },
    allowPositionals: true,
  });
  const root = path.resolve(values.root);
  const folders = positionals.length > 0 ? positionals : [...Object.keys(LAYERS), ...HARNESS];
  const violations = astroLayerViolations(root, folders);
  for (const line of violations) console.log(`  error ${line}`);
  if (violations.length > 0) {
    console.log(`\n✘ ${violations.length} .astro dependency violations`);
    process.exit(1);
  }
  console.log('✔ no .astro dependency violations found');
}
