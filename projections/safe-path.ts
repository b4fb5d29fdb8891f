/**
 * The one way the worker turns a relative path into a file it writes or
 * removes. Every write, rename and removal under the projections directory
 * goes through `pathInside`, which refuses any path that resolves outside its
 * root (`..`, an absolute path, a NUL byte), so no id or file name that
 * slipped past a shape check can reach a file beside or above the root.
 */
import path from 'node:path';

export class PathOutsideRootError extends Error {
  constructor(root: string, relative: string) {
    super(`refused a path outside ${root}: ${JSON.stringify(relative)}`);
    this.name = 'PathOutsideRootError';
  }
}

/** The absolute path of `relative` under `root`, or a thrown PathOutsideRootError. */
export function pathInside(root: string, relative: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, relative);
  if (relative.includes('\0') || path.isAbsolute(relative) || !target.startsWith(base + path.sep)) {
    throw new PathOutsideRootError(base, relative);
  }
  return target;
}
