/** Pieces every record view shares. */
import type { ViewSource } from './view-source.ts';
import type { AuthorView } from '../core/schemas/views.ts';

export { CONTENT_TRUST } from '../core/schemas/views.ts';

export async function authorView(src: ViewSource, id: string): Promise<AuthorView> {
  const identity = await src.identity(id);
  return { id, kind: identity?.kind ?? 'guest', handle: identity?.handle ?? null };
}

export const iso = (date: Date) => date.toISOString();
