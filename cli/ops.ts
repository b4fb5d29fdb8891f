/**
 * `npm run ops -- <command>`: the operator's tool (`--help` on it and on every command):
 * rebuild, import <file.jsonl>, redact-secrets, status, `fence on --reason "…"` / `fence off` (the serving fence), and
 * `oauth-clients list` / `oauth-clients prune` (registered clients nobody connected).
 * Runs against DATABASE_URL / REDIS_URL like the service does.
 *
 * Arguments are parsed by commander (a small, long-kept parser): it gives every
 * command its `--help`, refuses unknown options and bad choices with a usage
 * line and exit code 2, which hand-rolled `parseArgs` checks did not.
 */
import { hostname, userInfo } from 'node:os';
import { Command, Option } from 'commander';
import { loadConfig } from '../core/config.ts';
import {
  QUEUES,
  RebuildJobSchema,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_QUEUE,
  withTypeFromId,
} from '../core/queue-contract.ts';
import { createQueue, queueBackendOf } from '../infra/queues.ts';
import { loadHtmlRenderer } from '../projections/html.ts';
import { FenceCommandSchema, type FenceCommand } from '../core/schemas/fence.ts';
import { AdmissionSchema } from '../core/schemas/identity.ts';
import { COLLECTION, type RecordRef } from '../core/types.ts';
import { createPool } from '../db/pool.ts';
import { rebuild } from '../worker/jobs/rebuild.ts';
import { notingFencedPages, servingForFiles } from '../worker/render/fence-banner.ts';
import { createServingFence } from '../core/serving-fence.ts';
import { applyFenceCommand, readServingFence } from '../db/queries/serving-fence.ts';
import { owedRebuilds } from '../db/queries/owed-rebuilds.ts';
import { refreshAllTrust } from '../worker/jobs/refresh-trust.ts';
import { listUnusedClients, removeUnusedClients } from '../db/queries/oauth.ts';
import { resetSitemaps } from '../worker/sitemap/sitemaps.ts';
import { createProgress } from './progress.ts';
import { importFile } from './import.ts';
import { readOperatorStatus } from '../infra/operator-status.ts';
import { OperatorError, operatorErrorOf } from './operator-error.ts';
import { formatCounts, recordScan, redactStoredRecords, totalRedacted } from './redact-stored.ts';

async function withPool<T>(
  work: (pool: ReturnType<typeof createPool>, config: ReturnType<typeof loadConfig>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL, 4);
  try {
    return await work(pool, config);
  } finally {
    await pool.end();
  }
}

async function printStatus(): Promise<void> {
  await withPool(async (pool, config) => {
    const backend = queueBackendOf(config);
    const queues = QUEUES.map((name) => createQueue(backend, name, true));
    try {
      console.log(
        JSON.stringify(
          await readOperatorStatus(pool, queues, {
            searchIndexQueue: SEARCH_INDEX_QUEUE,
            searchCompactQueue: SEARCH_COMPACT_QUEUE,
            retryAfterSeconds: config.RETRY_AFTER_SECONDS,
          }),
          null,
          2,
        ),
      );
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  });
}

async function runRebuild(target: { type?: RecordRef['type']; id?: string }): Promise<void> {
  await withPool(async (pool, config) => {
    // As in the worker: pages rendered under the operator's fence carry its banner until the worker renders them again.
    const serving = servingForFiles(
      createServingFence(() => readServingFence(pool), { retryAfterSeconds: config.RETRY_AFTER_SECONDS }),
    );
    const html = notingFencedPages(await loadHtmlRenderer(config.ASTRO_ENTRY, serving), pool, serving);
    const started = performance.now();
    const counts = await rebuild(pool, html, config.PROJECTIONS_DIR, target, createProgress('rebuild'));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    // A record that does not exist renders nothing (its stale files, if any, are removed): say so, not "0 written".
    if (target.id && counts.written + counts.unchanged === 0) {
      const stale = counts.removed > 0 ? `; removed ${counts.removed} stale projection files` : '';
      throw new OperatorError(`no ${target.type} has the id ${target.id}${stale}`);
    }
    console.log(
      `rebuild done in ${seconds}s: ${counts.written} written, ${counts.unchanged} unchanged, ${counts.removed} removed`,
    );
    if (!target.type && !target.id)
      console.log(`sitemap: ${await resetSitemaps(pool, config.PROJECTIONS_DIR, config.PUBLIC_ORIGIN)} chunks written`);
  });
}

/**
 * Scan every stored record with the secret scanner, redact in place, and re-render when anything changed,
 * in this run or in one cut short before its rebuild (the rebuild it owes is stored with the redaction).
 */
async function runRedactSecrets(rebuildAfter: boolean): Promise<void> {
  const started = performance.now();
  const { counts, owed } = await withPool(async (pool) => {
    const found = await redactStoredRecords(pool, (table, c) =>
      process.stderr.write(`redact-secrets ${table}: ${c.scanned} scanned\n`),
    );
    await recordScan(pool, found);
    return { counts: found, owed: await owedRebuilds(pool) };
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`redact-secrets done in ${seconds}s:\n${formatCounts(counts)}`);
  if (owed.length === 0 || !rebuildAfter) return;
  if (totalRedacted(counts) === 0) console.log(`a full rebuild is owed (${owed.map((o) => o.reason).join(', ')})`);
  await runRebuild({});
}

async function changeFence(fence: FenceCommand, by: string | undefined): Promise<void> {
  await withPool(async (pool, config) => {
    const change = await applyFenceCommand(
      pool,
      fence,
      by ?? `${userInfo().username}@${hostname()}, ops CLI`,
      config.RETRY_AFTER_SECONDS,
    );
    // Return once every process acts on it, so `fence on && npm run migrate` never overlaps a write being admitted.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(change.effective_by) - Date.now())));
    console.log(JSON.stringify(change, null, 2));
  });
}

/** The fence command checked by the operator endpoint's own schema, so both accept the same. */
function fenceCommandOf(input: Record<string, unknown>, command: Command): FenceCommand {
  const parsed = FenceCommandSchema.safeParse(input);
  if (!parsed.success)
    command.error(`error: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data!;
}

function createOperatorProgram(): Command {
  const program = new Command('npm run ops --')
    .description('Operate the service: re-render projections, read queue depths and lags, fence writes.')
    .showHelpAfterError()
    // Usage errors exit 2, like other Unix tools; commander's default is 1.
    .exitOverride((error) => {
      if (error.exitCode === 0) process.exit(0);
      process.exit(2);
    });
  program
    .command('rebuild')
    .description('Re-render projections from the database: every record, one type, or one record.')
    .addOption(new Option('--type <type>', 'only records of this type').choices(Object.keys(COLLECTION)))
    .option('--id <id>', 'only this record (its prefix names its type: prb_, sol_, dsc_, agt_)')
    .action(async (options: { type?: RecordRef['type']; id?: string }, command: Command) => {
      // The same shape check as the endpoint and the worker: an id is a record id, never a path.
      const target = RebuildJobSchema.safeParse(withTypeFromId(options));
      if (!target.success) {
        const issue = target.error.issues[0]!;
        command.error(`error: --${issue.path.join('.')} ${issue.message}`);
      }
      await runRebuild(target.data);
    });
  program
    .command('import')
    .description(
      'Import problems, solutions and discussions from a JSON-lines file, one create operation per line (docs/operating.md, Importing a knowledge base). Checks every line first and imports nothing if any is bad; a key imported before is skipped, so the command can be run again after an interruption.',
    )
    .argument('<file>', 'the JSON-lines file')
    .option('--author <handle>', 'the identity the records are imported as, made on first use', 'import')
    .action(async (file: string, options: { author: string }, command: Command) => {
      // The rule a handle is admitted under (POST /api/identities).
      const handle = AdmissionSchema.shape.handle.safeParse(options.author);
      if (!handle.success) command.error(`error: --author: ${handle.error.issues[0]!.message}`);
      await withPool(async (pool) => {
        let load: ReturnType<typeof createProgress> | undefined;
        const summary = await importFile(pool, file, {
          author: options.author,
          onProgress: (p) => {
            if (p.phase !== 'load') return;
            load ??= createProgress('import');
            load(p);
          },
        });
        console.log(JSON.stringify(summary, null, 2));
      });
    });
  program
    .command('redact-secrets')
    .description(
      'Scan every stored revision, search document and profile with the secret scanner, redact what it finds, re-render, and print the counts.',
    )
    .option('--no-rebuild', 'leave re-rendering the projections to a later rebuild')
    .action((options: { rebuild: boolean }) => runRedactSecrets(options.rebuild));
  program
    .command('refresh-trust')
    .description('Recompute the stored trust (search ranking, disputed state) of every problem and solution.')
    .action(() =>
      withPool(async (pool) => {
        const { records, flipped } = await refreshAllTrust(pool, createProgress('refresh-trust'));
        console.log(`refresh-trust done: ${records} records, ${flipped} disputed states changed`);
      }),
    );
  program
    .command('status')
    .description("Print every queue's depths, the render lag, the search-index lag and the serving fence as JSON.")
    .action(printStatus);
  const fence = program
    .command('fence')
    .description('The serving fence: while it is on, every write answers 503 serving_fenced and reads go on.');
  fence
    .command('on')
    .description('Refuse every write; returns once every process does (within a second).')
    .requiredOption('--reason <text>', 'why, shown to every refused writer and on /api/v1')
    .option('--retry-after <seconds>', 'the Retry-After refused writers get (default 30)')
    .option('--by <who>', 'who raises it (default user@host)')
    .action(async (options: { reason: string; retryAfter?: string; by?: string }, command: Command) => {
      const on = {
        state: 'on',
        reason: options.reason,
        ...(options.retryAfter === undefined ? {} : { retry_after: options.retryAfter }),
      };
      await changeFence(fenceCommandOf(on, command), options.by);
    });
  fence
    .command('off')
    .description('Take writes again (a self-fence on a read-only database lifts by itself).')
    .option('--by <who>', 'who lowers it (default user@host)')
    .action(async (options: { by?: string }) => changeFence({ state: 'off' }, options.by));
  const clients = program
    .command('oauth-clients')
    .description(
      'OAuth clients registered (dynamic registration) that no account has connected with: they expire unused.',
    );
  clients
    .command('list')
    .description(
      'Print the unused clients as JSON, oldest first; "expired": true ones no longer answer and await prune.',
    )
    .action(() =>
      withPool(async (pool) => {
        console.log(JSON.stringify(await listUnusedClients(pool), null, 2));
      }),
    );
  clients
    .command('prune')
    .description(
      'Delete the expired unused clients (with --all, every unused client) and every other expired OAuth record.',
    )
    .option('--all', 'also delete unused clients that have not expired yet')
    .action((options: { all?: boolean }) =>
      withPool(async (pool) => {
        console.log(
          JSON.stringify({ removed: await removeUnusedClients(pool, options.all ? 'all' : 'expired') }, null, 2),
        );
      }),
    );
  return program;
}

try {
  await createOperatorProgram().parseAsync(process.argv);
} catch (error) {
  // What the operator can act on (an unknown record, no database) is one line; anything else keeps its stack.
  const known = operatorErrorOf(error, loadConfig());
  if (!known) throw error;
  console.error(`error: ${known}`);
  process.exit(1);
}
