/** What a record page needs from its request: the view the renderer passed in `locals`. */
import type { RecordView } from '../../core/schemas/views.ts';
import type { CollectionView } from '../../core/schemas/collection-views.ts';

/** The view in `locals` when it is a `type` view, else null (the page answers 404). */
export function recordViewOf<T extends RecordView['type']>(
  locals: App.Locals,
  type: T,
): Extract<RecordView, { type: T }> | null {
  const view = locals.view;
  return view?.type === type ? (view as Extract<RecordView, { type: T }>) : null;
}

export const notFoundResponse = () => new Response(null, { status: 404 });

/** The collection view in `locals` when it lists `kind`, else null (the page answers 404). */
export function collectionViewOf<K extends CollectionView['kind']>(
  locals: App.Locals,
  kind: K,
): Extract<CollectionView, { kind: K }> | null {
  const view = locals.collection;
  return view?.kind === kind ? (view as Extract<CollectionView, { kind: K }>) : null;
}
