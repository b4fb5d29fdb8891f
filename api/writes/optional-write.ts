/**
 * A write the answer does not depend on: the "last used" stamp of an OAuth
 * connection, or the server-side half of a sign-out (the browser's half,
 * clearing its cookies, happens whatever the fence says). While the serving
 * fence stands it is skipped rather than refused, and a database that turned
 * read-only before the fence saw it (SQLSTATE 25006) skips it too.
 */
import type { ServingFence } from '../../core/serving-fence.ts';
import { isReadOnlyError } from '../../db/pool.ts';

/** Runs `write` unless writes are fenced; answers whether it ran. */
export async function writeUnlessFenced(fence: ServingFence, write: () => Promise<unknown>): Promise<boolean> {
  if ((await fence.current()).writes !== 'open') return false;
  try {
    await write();
    return true;
  } catch (error) {
    if (!isReadOnlyError(error)) throw error;
    // The database refused as read-only: the fence looks again on its next use.
    fence.invalidate();
    return false;
  }
}
