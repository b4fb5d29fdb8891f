/**
 * A folder for a bench's projection files whose inodes come from a block
 * group of its own, not from the one every other folder under /tmp shares.
 *
 * Why: on ext4 without a journal (this machine's root file system), creating a
 * file scans past every inode of the group freed in the last 60 s (up to
 * 360 s while its inode table block is dirty) before it takes one
 * (`find_inode_bit` → `recently_deleted`, fs/ext4/ialloc.c). A bench run
 * removes its ~10,000 projection files when it ends, so the next run's renders
 * paid 0.4–0.8 ms of system CPU per file created instead of ~0.02 ms, about 4
 * ms per write (6 files each), for the first minutes: the renders then
 * measured the previous run's clean-up, or another session's, not the
 * pipeline. A deployed projections folder does not sit among thousands of
 * files deleted a minute ago.
 *
 * How: `chattr +T` marks the bench's own temporary folder as the top of a
 * directory hierarchy, so ext4's Orlov allocator places a folder made in it
 * in a group with few folders and above-average free inodes (as it places
 * folders made in /), and that folder's files follow it. The search for
 * that group starts at a hash of the folder's name, so the name is random: a
 * fixed one found the same group every run, the one the previous run had
 * just emptied. On other file systems, or without chattr, the flag is
 * refused and nothing changes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';

/** A new folder in `parent` named `prefix` and six random characters. */
export function freshFolder(parent: string, prefix: string): string {
  try {
    execFileSync('chattr', ['+T', parent], { stdio: 'ignore' });
  } catch {
    // Not ext4, or no chattr: the folder is made where it would have been.
  }
  return mkdtempSync(path.join(parent, prefix));
}
