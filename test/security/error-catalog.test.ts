/**
 * Point 9 of the hardening issue: one catalog of error reasons. Every reason
 * is a snake_case name with a fixed code, a message builder and a hint, and no
 * error anywhere in the service is written outside the catalog (this test
 * reads the source to make sure of the second half).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASONS } from '../../core/errors-data.ts';
import { ERROR_STATUS, errorBody, errorInfo } from '../../core/errors.ts';
import { AUTHENTICATION_HELP } from '../../site/lib/help/authentication.ts';
import { admit, errorOf, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_FOLDERS = ['api', 'core', 'worker', 'db', 'cli', 'site', 'scripts'];
/** The catalog itself, and the module that turns its entries into values. */
const CATALOG_FILES = new Set(['core/errors-data.ts', 'core/errors.ts']);
/**
 * Files that name reasons or codes without building an error, each checked
 * another way: the help documents catalog reasons typed as `Reason` (the
 * compiler refuses a name the catalog lacks; the test below checks codes);
 * the join page's client describes failures that never reached the service.
 */
const DESCRIBES_ERRORS = new Set(['site/lib/help/authentication.ts', 'site/lib/join/api.ts']);

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|astro)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Ways of writing an error by hand that the catalog replaces. */
const codes = Object.keys(ERROR_STATUS).join('|');
const INLINE_ERROR_PATTERNS: { what: string; pattern: RegExp }[] = [
  // An error reason is a snake_case name; a person's words (the fence's reason) are not one.
  { what: 'a reason written as a literal', pattern: /\breason:\s*['"`][a-z][a-z0-9]*(_[a-z0-9]+)*['"`]/ },
  { what: 'an error code written in an object literal', pattern: new RegExp(`\\bcode:\\s*['"\`](${codes})['"\`]`) },
  { what: 'an ApiError built from an inline value', pattern: /new ApiError\(\s*\{/ },
  { what: 'an Error-shape body built by hand', pattern: /\{\s*error:\s*\{\s*code\b/ },
];

describe('the error-reason catalog', () => {
  it('names every reason in snake_case', () => {
    const bad = Object.keys(REASONS).filter((name) => !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(name));
    expect(bad).toEqual([]);
  });

  it('gives every reason a known code, a message builder and a hint that is a sentence', () => {
    for (const [name, entry] of Object.entries(REASONS)) {
      expect(Object.keys(ERROR_STATUS), name).toContain(entry.code);
      expect(typeof entry.message, name).toBe('function');
      expect(entry.hint, name).toMatch(/^[A-Z].*[.)]$/);
    }
  });

  it('renders an error from the catalog with its reason, code, status, message and hint', () => {
    const body = errorBody(errorInfo('body_too_large', { limit: 1_048_576 }), 'req_x').error;
    expect(body).toMatchObject({
      code: 'payload_too_large',
      status: 413,
      reason: 'body_too_large',
      message: 'The request body is larger than 1048576 bytes (1 MiB).',
      hint: REASONS.body_too_large.hint,
    });
  });

  it('has no error written outside the catalog anywhere in the service source', async () => {
    const files = (await Promise.all(SOURCE_FOLDERS.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(50);
    const offences: string[] = [];
    for (const file of files) {
      if (CATALOG_FILES.has(file) || DESCRIBES_ERRORS.has(file)) continue;
      const lines = (await readFile(path.join(ROOT, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const { what, pattern } of INLINE_ERROR_PATTERNS) {
          if (pattern.test(line)) offences.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        }
      });
    }
    expect(offences).toEqual([]);
  });

  it('documents in the authentication help only catalog reasons, each with the catalog code', () => {
    const documented = [
      ...AUTHENTICATION_HELP.steps.flatMap((step) => step.responses),
      ...AUTHENTICATION_HELP.unauthenticated.reasons,
    ];
    for (const { reason, code } of documented) {
      if (reason) expect(REASONS[reason].code, reason).toBe(code);
    }
  });
});

describe('catalog reasons on the wire', () => {
  let stack: Stack;
  let agent: Agent;
  beforeAll(async () => {
    stack = await startStack();
    agent = await admit(stack.base);
  });
  afterAll(() => stack.close());

  it('answers acknowledging an unknown inbox item with reason unknown_inbox_item, a snake_case name', async () => {
    const res = await send(stack.base, agent, 'POST', '/api/inbox/inb_00000000000000000000000000/ack', {});
    expect(res.status).toBe(404);
    expect(errorOf(res.body)).toMatchObject({
      code: 'not_found',
      reason: 'unknown_inbox_item',
      hint: REASONS.unknown_inbox_item.hint,
    });
  });

  it('carries the catalog hint on a refusal the API raises itself', async () => {
    const res = await fetch(`${stack.base}/api/problems`, { method: 'DELETE' });
    expect(errorOf(await res.json())).toMatchObject({
      reason: 'method_not_allowed',
      hint: REASONS.method_not_allowed.hint,
    });
  });
});
