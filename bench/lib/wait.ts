/** Waiting on the worker, bounded. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { readSearchDocumentsLag } from '../../db/queries/search.ts';

/** Polls until `check` passes; throws after `ms`. */
export async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return (performance.now() - started) / 1000;
    if (performance.now() - started > ms) throw new Error(`${what}: not done within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Until the projection file exists and its text passes `check`. */
export function projectionWritten(
  dir: string,
  file: string,
  check: (text: string) => boolean = () => true,
  ms = 15_000,
) {
  return until(
    `rendering ${file}`,
    async () => {
      const text = await readFile(path.join(dir, file), 'utf8').catch(() => null);
      return text !== null && check(text);
    },
    ms,
  );
}

/** Until every committed change is rendered; returns the seconds it took. */
export function rendersCaughtUp(pool: pg.Pool, ms: number) {
  return until('render backlog', async () => (await countUnrenderedChanges(pool)) === 0, ms);
}

/** Until the search documents reflect every commit (or `ms` passed); returns how many changes still wait. */
export async function searchCaughtUp(pool: pg.Pool, ms: number): Promise<number> {
  await until('search catch-up', async () => (await readSearchDocumentsLag(pool)).pending === 0, ms).catch(() => {});
  return (await readSearchDocumentsLag(pool)).pending;
}
