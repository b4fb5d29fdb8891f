/**
 * Where each record's projections live: the file written and the media type
 * served. The worker writes these files; the API and
 * nginx serve them.
 */
import { COLLECTION, type RecordRef } from '../core/types.ts';

export type ProjectionFormat = 'html' | 'json' | 'markdown';

/**
 * In the order a record's files are written and removed: the JSON last, whose
 * revision read-your-writes reads (projections/read-your-writes.ts), so a
 * render cut short leaves no file of a newer revision than its JSON shows.
 */
export const FORMATS: ProjectionFormat[] = ['html', 'markdown', 'json'];

const EXTENSION: Record<ProjectionFormat, string> = { html: '.html', json: '.json', markdown: '.md' };

export const MEDIA_TYPE: Record<ProjectionFormat, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  markdown: 'text/markdown; charset=utf-8',
};

/** The file, relative to the projections directory, e.g. `problems/prb_….md`. */
export function projectionFile(ref: RecordRef, format: ProjectionFormat): string {
  return `${COLLECTION[ref.type]}/${ref.id}${EXTENSION[format]}`;
}

/**
 * A rebuild's staging folders inside the projections directory start with this (worker/jobs/rebuild-staging.ts):
 * each holds `<folder>/…` for the kinds it renames into place when it is done.
 */
export const STAGING_PREFIX = '.rebuild-';
