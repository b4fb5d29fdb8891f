/**
 * Recomputes the stored trust of every problem and solution
 * (`npm run ops -- refresh-trust`): for a database that had records before
 * trust existed, and after a change to core/trust/rules.ts. One transaction
 * per record, as a commit would do it: a record whose disputed state flips
 * logs `<type>.disputed` / `<type>.undisputed`, which re-renders it. Safe
 * to run again, and beside running workers (the trust row lock orders it
 * with their commits).
 */
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { appendChange } from '../../db/queries/changes.ts';
import { listAllProblemIds } from '../../db/queries/problems.ts';
import { listAllSolutionIds } from '../../db/queries/solutions.ts';
import type { TrustRecordType } from '../../db/queries/trust.ts';
import { refreshTrust } from '../../operations/trust.ts';

export async function refreshAllTrust(
  pool: pg.Pool,
  progress: (p: { done: number; total: number }) => void = () => {},
): Promise<{ records: number; flipped: number }> {
  const refs: { type: TrustRecordType; id: string }[] = [
    ...(await listAllProblemIds(pool)).map((id) => ({ type: 'problem' as const, id })),
    ...(await listAllSolutionIds(pool)).map((id) => ({ type: 'solution' as const, id })),
  ];
  let flipped = 0;
  progress({ done: 0, total: refs.length });
  for (const [i, ref] of refs.entries()) {
    await withTransaction(pool, async (tx) => {
      const at = new Date();
      for (const change of await refreshTrust(tx, ref, at)) {
        await appendChange(tx, { ...change, at });
        flipped += 1;
      }
    });
    progress({ done: i + 1, total: refs.length });
  }
  return { records: refs.length, flipped };
}
