/**
 * The layering of the repository, checked by test/layering.test.ts (in
 * `npm test`) and by `npm run check:layers`. Each folder names the folders
 * it may import; any other edge between the repo's folders, and any cycle,
 * fails. README.md and docs/architecture.md ("Folder guide") say the same in
 * sentences. `.astro` files are held to the same rules by
 * scripts/check-astro-layers.ts.
 */

/** Folder → the repo folders it may import (besides itself). */
export const LAYERS = {
  core: [],
  db: ['core'],
  infra: ['core', 'db'],
  'read-model': ['core', 'db'],
  'database-search': ['core', 'db', 'read-model'],
  operations: ['core', 'db', 'database-search'],
  projections: ['core', 'db', 'read-model'],
  'static-search': ['core', 'projections'],
  site: ['core'],
  api: ['core', 'infra', 'db', 'read-model', 'database-search', 'operations', 'projections'],
  worker: ['core', 'infra', 'db', 'read-model', 'database-search', 'operations', 'projections', 'static-search'],
  cli: ['core', 'infra', 'db', 'read-model', 'operations', 'projections', 'static-search', 'worker'],
  scripts: [
    'core',
    'infra',
    'db',
    'read-model',
    'database-search',
    'operations',
    'projections',
    'static-search',
    'api',
    'worker',
  ],
};

/** Tests and benchmarks may import anything; nothing else may import them. */
export const HARNESS = ['test', 'bench'];
const FOLDERS = [...Object.keys(LAYERS), ...HARNESS];

/** `core/` is vocabulary: no connections, files, servers or processes. */
const IO_PACKAGES = [
  'pg',
  'bullmq',
  'ioredis',
  'pino',
  'prom-client',
  'hono',
  '@hono/.+',
  'astro',
  '@astrojs/.+',
  'pagefind',
  '@electric-sql/.+',
  '@modelcontextprotocol/.+',
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'worker_threads',
  'dgram',
  'tls',
  'cluster',
];

const under = (folders) => `^(${folders.join('|')})/`;

const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => ({
  name: `${folder}-imports-only-its-layers`,
  comment: `${folder}/ may import ${allowed.length ? allowed.map((f) => `${f}/`).join(', ') : 'no other folder'} (docs/architecture.md, Folder guide).`,
  severity: 'error',
  from: { path: under([folder]) },
  to: { path: under(FOLDERS.filter((f) => f !== folder && !allowed.includes(f))) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one; split what they share into a third.',
      severity: 'error',
      // The one known exception: errors.ts and its catalog errors-data.ts, which imports only the ErrorCode type back
      // (no load order). swc, the parser here, cannot tell type-only imports apart.
      from: { pathNot: '^core/errors(-data)?\\.ts$' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'core-does-no-io',
      comment:
        'core/ holds types, ids, errors, config, schemas and the queue contract; I/O lives in infra/, db/ and the processes.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: `^(node:)?(${IO_PACKAGES.join('|')})$|node_modules/(${IO_PACKAGES.join('|')})/` },
    },
    {
      name: 'static-search-has-no-queues',
      comment:
        "static-search/ builds and publishes the index; the jobs that run it, their queues and BullMQ workers are the worker's (worker/jobs/table.ts).",
      severity: 'error',
      from: { path: '^static-search/' },
      to: { path: '^(bullmq|ioredis)$|node_modules/(bullmq|ioredis)/' },
    },
    {
      name: 'nothing-imports-the-harness',
      comment: 'Tests and benchmarks depend on the code, never the reverse.',
      severity: 'error',
      from: { pathNot: under(HARNESS) },
      to: { path: under(HARNESS) },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|node_modules)/' },
    // TypeScript 7 has no compiler API for dependency-cruiser to use; swc parses the .ts files.
    parser: 'swc',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
