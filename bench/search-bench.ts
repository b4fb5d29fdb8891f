/**
 * `npm run bench:search`: seeds 100,000 records into a throwaway database,
 * starts the real API on it, and measures search latency per mode over real
 * HTTP, next to a baseline measured in the same run: the problems
 * collection (one indexed SELECT through the same stack) and a SELECT by
 * primary key straight on the pool. Requests of all kinds are interleaved,
 * one at a time, so every kind sees the same cache. Prints p50/p95 and the
 * ratio to the baseline, and writes bench/results/search-bench-<time>.json.
 *
 * Options: --records N (100000), --requests N per kind (300),
 * --database-url URL to reuse an already seeded database (kept afterwards).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startApiService } from '../api/service.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../infra/logger.ts';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { compactSearchChampions } from '../db/queries/search.ts';
import { searchDocumentsCaughtUp } from '../database-search/search-catch-up.ts';
import { createThrowawayDatabase } from './lib/throwaway-database.ts';
import { sampleLiteral, sampleSymptom, sampleTruncated } from './seed/corpus.ts';
import { createRandom } from './seed/random.ts';
import { seedRecords } from './seed/seed-records.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '300' },
    'database-url': { type: 'string' },
  },
});
const records = Number(values.records);
const requests = Number(values.requests);
const WARMUP = 30;

/**
 * Words of the seeded corpus's most common full-text terms (`ts_stat` over
 * 100k records: each is in 10,000 to 36,000 documents): a query made only of
 * them matches a large share of the table, the worst case for the bounds.
 */
const COMMON_WORDS = [
  'running',
  'service',
  'error',
  'failed',
  'start',
  'ci',
  'seconds',
  'time',
  'load',
  'works',
  'changed',
  'node',
  'docker',
  'code',
  'restart',
  'request',
  'happens',
  'test',
  'connection',
  'timeout',
  'logs',
  'machine',
  'production',
  'setup',
  'startup',
  'server',
  'windows',
  'python',
];

interface Stats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

function statsOf(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
    max: round(sorted.at(-1)!),
  };
}

const throwaway = values['database-url'] ? null : await createThrowawayDatabase('ak_bench');
const databaseUrl = values['database-url'] ?? throwaway!.url;
const pool = createPool(databaseUrl, 10);
const projections = await mkdtemp(path.join(tmpdir(), 'ak-bench-'));
try {
  await migrate(pool);
  let seeded: Record<string, unknown> = { reused: databaseUrl };
  let sampleIds: string[];
  if (throwaway) {
    const started = Date.now();
    const summary = await seedRecords(pool, {
      records,
      onProgress: (n) => process.stderr.write(`\rseeding ${n}/${records}`),
    });
    process.stderr.write('\n');
    const { sampleProblemIds, ...counts } = summary;
    sampleIds = sampleProblemIds;
    seeded = { ...counts, seconds: (Date.now() - started) / 1000 };
  } else {
    sampleIds = (await pool.query<{ id: string }>('SELECT id FROM problems ORDER BY random() LIMIT 1000')).rows.map(
      (r) => r.id,
    );
  }
  // What the worker's catch-up would do with a reused database's noted changes (the seed already did).
  await searchDocumentsCaughtUp(pool);
  // What the worker's compaction would do after a bulk load: the champion lists (db/migrations/000016.sql)
  // take in every document changed since they were built, or are built.
  await compactSearchChampions(pool, 1);
  // What autovacuum would do soon after a bulk load: visibility map and planner statistics.
  await pool.query('VACUUM ANALYZE');
  const documents = Number((await pool.query('SELECT count(*) AS n FROM search_documents')).rows[0].n);

  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `bench${randomUUID().replaceAll('-', '')}`,
    PROJECTIONS_DIR: projections,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // The bench is one client sending thousands of reads; the read limit would answer 429.
    READ_RATE_LIMIT: '1000000000',
  });
  const api = await startApiService(config, pool, createLogger('silent', 'bench'));
  const base = `http://127.0.0.1:${api.port}`;
  const r = createRandom(42);

  const search = (mode: string, q: () => string) => async () => {
    const res = await fetch(`${base}/api/search?${new URLSearchParams({ q: q(), mode })}`);
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    return (await res.json()).coverage.total as number;
  };
  const kinds: Record<string, () => Promise<unknown>> = {
    exact: search('exact', () => sampleLiteral(r)),
    substring: search('substring', () => sampleTruncated(r)),
    keywords: search('keywords', () => sampleSymptom(r)),
    auto: search('auto', () => r.pick([sampleLiteral, sampleTruncated, sampleSymptom])(r)),
    'common words (auto)': search('auto', () =>
      [...new Set(Array.from({ length: r.int(2, 4) }, () => r.pick(COMMON_WORDS)))].join(' '),
    ),
    'empty q (newest)': search('auto', () => ''),
    'baseline: GET /api/problems': async () => {
      const res = await fetch(`${base}/api/problems?limit=7&page=${r.int(1, 100)}`);
      if (res.status !== 200) throw new Error(`collection answered ${res.status}`);
      return (await res.json()).items.length;
    },
    'baseline: SQL by id': () =>
      pool.query('SELECT id, current_revision FROM problems WHERE id = $1::text', [r.pick(sampleIds)]),
  };
  const loadAtStart = loadavg();
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const totals: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let round = 0; round < WARMUP + requests; round++) {
    for (const [kind, run] of Object.entries(kinds)) {
      const started = performance.now();
      const total = await run();
      const elapsed = performance.now() - started;
      if (round >= WARMUP) {
        samples[kind]!.push(elapsed);
        if (typeof total === 'number') totals[kind]!.push(total);
      }
    }
  }
  await api.close();

  const stats = Object.fromEntries(Object.entries(samples).map(([k, s]) => [k, statsOf(s)]));
  const baseline = stats['baseline: GET /api/problems']!;
  const lines = [
    `machine: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; load average at start ${loadAtStart.map((x) => x.toFixed(2)).join(', ')}, at end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
    `search over HTTP, ${documents} documents (${records} records seeded), ${requests} requests per kind after ${WARMUP} warm-up rounds`,
    `${'kind'.padEnd(30)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p50/base'.padStart(10)}${'p95/base'.padStart(10)}${'median total'.padStart(14)}`,
  ];
  for (const [kind, s] of Object.entries(stats)) {
    const t = [...totals[kind]!].sort((a, b) => a - b);
    lines.push(
      `${kind.padEnd(30)}${s.p50.toFixed(2).padStart(9)}${s.p95.toFixed(2).padStart(9)}${(s.p50 / baseline.p50).toFixed(1).padStart(10)}${(s.p95 / baseline.p95).toFixed(1).padStart(10)}${String(t[Math.floor(t.length / 2)] ?? '').padStart(14)}`,
    );
  }
  console.log(lines.join('\n'));

  const outDir = new URL('./results/', import.meta.url);
  await mkdir(outDir, { recursive: true });
  const out = new URL(`./search-bench-${new Date().toISOString().replaceAll(':', '-')}.json`, outDir);
  await writeFile(
    out,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        records,
        documents,
        seeded,
        requests,
        warmup: WARMUP,
        postgres: (await pool.query('SELECT version()')).rows[0].version,
        load_average: { start: loadAtStart, end: loadavg() },
        stats,
        ratio_to_baseline: Object.fromEntries(
          Object.entries(stats).map(([k, s]) => [k, { p50: s.p50 / baseline.p50, p95: s.p95 / baseline.p95 }]),
        ),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${out.pathname}`);
} finally {
  await pool.end();
  await throwaway?.drop();
  await rm(projections, { recursive: true, force: true });
}
