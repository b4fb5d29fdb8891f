/**
 * Record projections. The default representation (current revision, first
 * page) is the static file the worker wrote; pinned revisions and other pages
 * are rendered on demand through the same templates.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { isId } from '../../core/ids.ts';
import { MEDIA_TYPE, projectionFile, projectionRoute, type ProjectionFormat } from '../../core/render/projections.ts';
import { DEFAULT_RECORD_LIMIT, RecordParamsSchema, type RecordParams } from '../../core/schemas/read-params.ts';
import type { RecordRef } from '../../core/types.ts';
import type { AppDeps } from '../app-deps.ts';
import { CACHE, sendRepresentation } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

const SUFFIX_FORMAT: Record<string, ProjectionFormat> = { '': 'html', '.json': 'json', '.md': 'markdown' };

/** `prb_….md` → the record and format, or null when the name is not a projection's. */
export function parseProjectionName(type: RecordRef['type'], name: string): { ref: RecordRef; format: ProjectionFormat } | null {
  const match = /^([a-z]+_[0-9a-z]+)(\.json|\.md)?$/.exec(name);
  if (!match || !isId(type, match[1]!)) return null;
  return { ref: { type, id: match[1]! }, format: SUFFIX_FORMAT[match[2] ?? '']! };
}

const isDefault = (p: RecordParams) => p.revision === undefined && p.page === 1 && p.limit === DEFAULT_RECORD_LIMIT;

function queryOf(p: RecordParams): string {
  const q = new URLSearchParams();
  if (p.revision !== undefined) q.set('revision', String(p.revision));
  q.set('page', String(p.page));
  q.set('limit', String(p.limit));
  return `?${q}`;
}

/** The 404 of a record read (HTTP or tool): no such record, or no such revision of it. */
export function unknownRecord(ref: RecordRef, revision?: number) {
  return apiError('not_found', revision
    ? `No ${ref.type} ${ref.id} with revision ${revision}.`
    : `No ${ref.type} has the id ${ref.id}.`, { reason: revision ? 'unknown_revision' : `unknown_${ref.type}` });
}

export function createProjectionReader({ config, renderer }: AppDeps) {
  return async function serveProjection(c: Context, type: RecordRef['type'], name: string): Promise<Response> {
    const parsed = parseProjectionName(type, name);
    if (!parsed) throw apiError('not_found', `No ${type} is named ${JSON.stringify(name)}.`, { reason: `unknown_${type}` });
    const { ref, format } = parsed;
    const params = parseOrThrow(RecordParamsSchema, c.req.query(), 'query');
    if (isDefault(params)) {
      const file = await readFile(path.join(config.PROJECTIONS_DIR, projectionFile(ref, format))).catch(() => null);
      if (file) return sendRepresentation(c, { body: file, contentType: MEDIA_TYPE[format], cacheControl: CACHE.record });
    }
    // Not the default view, or not rendered yet: render it now.
    const out = await renderer.render(projectionRoute(ref, format) + queryOf(params));
    if (out.status === 404) throw unknownRecord(ref, params.revision);
    if (out.status !== 200) throw new Error(`rendering ${ref.id} answered ${out.status}`);
    return sendRepresentation(c, { body: out.body, contentType: MEDIA_TYPE[format], cacheControl: CACHE.record });
  };
}
