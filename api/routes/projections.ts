/**
 * Record projections. The default representation (current revision, first
 * page) is the static file the worker wrote; pinned revisions and other pages
 * are rendered on demand through the same templates.
 */
import path from 'node:path';
import type { Context } from 'hono';
import { UNKNOWN_RECORD } from '../../core/error-reasons.ts';
import { apiError } from '../../core/errors.ts';
import { isId } from '../../core/ids.ts';
import { MEDIA_TYPE, projectionFile, type ProjectionFormat } from '../../projections/files.ts';
import { renderProjection } from '../../projections/render.ts';
import { buildRecordView } from '../../read-model/record-view.ts';
import { DEFAULT_RECORD_LIMIT, RecordParamsSchema, type RecordParams } from '../../core/schemas/read-params.ts';
import type { RecordRef } from '../../core/types.ts';
import type { AppDeps } from '../app-deps.ts';
import { ENCODING_SUFFIX, ENCODINGS } from '../../core/encodings.ts';
import { chooseEncoding } from '../http/compression.ts';
import { CACHE, sendRepresentation } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

const SUFFIX_FORMAT: Record<string, ProjectionFormat> = { '': 'html', '.json': 'json', '.md': 'markdown' };

/** `prb_….md` → the record and format, or null when the name is not a projection's. */
export function parseProjectionName(
  type: RecordRef['type'],
  name: string,
): { ref: RecordRef; format: ProjectionFormat } | null {
  const match = /^([a-z]+_[0-9a-z]+)(\.json|\.md)?$/.exec(name);
  if (!match || !isId(type, match[1]!)) return null;
  return { ref: { type, id: match[1]! }, format: SUFFIX_FORMAT[match[2] ?? '']! };
}

const isDefault = (p: RecordParams) => p.revision === undefined && p.page === 1 && p.limit === DEFAULT_RECORD_LIMIT;

/** The 404 of a record read (HTTP or tool): no such record, or no such revision of it. */
export function unknownRecord(ref: RecordRef, revision?: number) {
  return revision
    ? apiError('unknown_revision', { type: ref.type, id: ref.id, revision })
    : apiError(UNKNOWN_RECORD[ref.type], { id: ref.id });
}

export function createProjectionReader({ config, pool, html, projectionFiles: files }: AppDeps) {
  return async function serveProjection(c: Context, type: RecordRef['type'], name: string): Promise<Response> {
    const parsed = parseProjectionName(type, name);
    // An id of another shape is simply unknown; the message names the id asked for, not the file behind it.
    if (!parsed) throw apiError(UNKNOWN_RECORD[type], { id: name.replace(/\.(json|md)$/, '') });
    const { ref, format } = parsed;
    const params = parseOrThrow(RecordParamsSchema, c.req.query(), 'query');
    if (isDefault(params)) {
      const filePath = path.join(config.PROJECTIONS_DIR, projectionFile(ref, format));
      const rep = { contentType: MEDIA_TYPE[format], cacheControl: CACHE.record };
      // The worker's precompressed sibling in the encoding the client prefers, through the same cache.
      for (let offered = [...ENCODINGS]; offered.length; ) {
        const encoding = chooseEncoding(c, offered);
        if (!encoding) break;
        const sibling = await files.read(filePath + ENCODING_SUFFIX[encoding]);
        if (sibling) return sendRepresentation(c, { ...rep, body: sibling.body, etag: sibling.etag, encoding });
        offered = offered.filter((e) => e !== encoding);
      }
      const file = await files.read(filePath);
      if (file) return sendRepresentation(c, { ...rep, body: file.body, etag: file.etag, asStaticFile: true });
    }
    // Not the default view, or not rendered yet: build it and render it now, with the same templates.
    const view = await buildRecordView(pool, ref, params);
    if (!view) throw unknownRecord(ref, params.revision);
    const body = await renderProjection(html, view, format);
    // The default view is the file the worker is about to write: the same bytes and ETags in every encoding.
    return sendRepresentation(c, {
      body,
      contentType: MEDIA_TYPE[format],
      cacheControl: CACHE.record,
      asStaticFile: isDefault(params),
    });
  };
}
