/**
 * The default projections answered before the router: the hot path of a
 * public origin. A plain GET or HEAD of `/{folder}/{id}[.json|.md]` or
 * `/api/v1/{folder}/{id}` whose file is in the projection cache
 * (api/reads/projection-cache.ts) is answered here, from the cached bytes, with
 * headers computed once per format. Going through Hono cost a Request and a
 * Response object, a Headers map and eight middlewares per read; here a read
 * is a regular expression, one stat, a counter and one write.
 *
 * It is the same answer as the app's, built from the same parts: the read
 * rate limit (`createReadAdmission`, same counters and headers), content
 * negotiation (`recordFormatFor`, `acceptsJson`, `chooseEncodingFor`),
 * `fixedHeaders`, the public-read CORS headers, `ifNoneMatchHits` and the request log and metrics
 * (`createRequestRecorder`). Anything else goes to the app, which answers it
 * in full: a query string, an Accept an API path refuses,
 * a file not cached yet, a sibling missing (compressed per request), and a
 * read past the rate limit, so every 429 and every error is the app's own.
 * test/api/fast-reads.test.ts compares the two answer by answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ENCODING_SUFFIX, ENCODINGS, isCompressible, type Encoding } from '../../core/encodings.ts';
import { ifNoneMatchHits } from '../../core/etag.ts';
import { isId } from '../../core/ids.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import { MEDIA_TYPE, projectionFile, type ProjectionFormat } from '../../projections/files.ts';
import { chooseEncodingFor } from '../http/compression.ts';
import { PUBLIC_READ_CORS_HEADERS } from '../http/cors.ts';
import { acceptsJson, recordFormatFor, TWIN_SUFFIX } from '../http/negotiation.ts';
import type { RecordRequest } from '../app-deps.ts';
import type { CachedFile, FileCache } from './projection-cache.ts';
import { addressOf } from '../limits/rate-limit.ts';
import { CACHE, fixedHeaders } from '../http/representation.ts';
import { newRequestId } from '../http/request-id.ts';

/** Every path this answers is a public read (api/http/cors.ts). */
const CORS = PUBLIC_READ_CORS_HEADERS.flat();

export interface FastReadsDeps {
  projectionsDir: string;
  trustedProxyHops: number;
  files: FileCache;
  /** The read budget of a client address: RateLimit-* headers, or null past the limit (see rate-limit.ts). */
  admitRead: (subject: string) => string[] | null;
  recordRequest: RecordRequest;
}

/** Answers the request and returns true, or returns false without touching it (the app answers). */
export type FastRead = (req: IncomingMessage, res: ServerResponse) => boolean;

const TYPE_OF_FOLDER = new Map(Object.entries(COLLECTION).map(([type, folder]) => [folder, type as RecordRef['type']]));
/** `/api/v1/problems/prb_…` or `/problems/prb_…[.json|.md]`; ids are plain ASCII, so nothing here is percent-encoded. */
const PROJECTION_PATH = /^\/(api\/v1\/)?([a-z]+)\/([a-z]+_[0-9a-z]+)(\.json|\.md)?$/;
const SUFFIX_FORMAT: Record<string, ProjectionFormat> = { '.json': 'json', '.md': 'markdown' };

/** The route patterns the app registers for these paths (app.ts), so logs and metrics label both paths alike. */
const routeOf = (api: boolean, folder: string) => (api ? `/api/v1/${folder}/:id` : `/${folder}/:name`);

export function createFastReads(deps: FastReadsDeps): FastRead {
  const { files, admitRead, recordRequest } = deps;
  // Folder and id are plain ASCII (PROJECTION_PATH): a concatenation is the path.join it would be, without its normalising pass.
  const root = path.join(deps.projectionsDir, '/');
  const fixed = Object.fromEntries(
    (Object.keys(MEDIA_TYPE) as ProjectionFormat[]).map((format) => [
      format,
      Object.entries(fixedHeaders({ contentType: MEDIA_TYPE[format], cacheControl: CACHE.record })).flat(),
    ]),
  ) as Record<ProjectionFormat, string[]>;

  /** The cached sibling in the encoding the client prefers, as the app's reader picks it; undefined when only the app can tell. */
  function pickEncoding(
    file: string,
    acceptEncoding: string,
  ): { encoding: Encoding; cached: CachedFile } | null | undefined {
    for (let offered = [...ENCODINGS]; offered.length; ) {
      const encoding = chooseEncodingFor(acceptEncoding, offered);
      if (!encoding) return null;
      const cached = files.peek(file + ENCODING_SUFFIX[encoding]);
      if (cached === undefined) return undefined;
      if (cached) return { encoding, cached };
      offered = offered.filter((e) => e !== encoding);
    }
    return null;
  }

  return function serveCachedProjection(req, res) {
    const started = performance.now();
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const match = PROJECTION_PATH.exec(req.url ?? '');
    if (!match) return false;
    const api = match[1] !== undefined;
    const folder = match[2]!;
    const id = match[3]!;
    const suffix = match[4];
    const type = TYPE_OF_FOLDER.get(folder);
    if (!type || !isId(type, id) || (api && suffix)) return false;
    const headers = req.headers;
    const accept = headers.accept;
    if (api && !acceptsJson(accept)) return false;

    const out: string[] = [];
    let format: ProjectionFormat;
    let vary = '';
    if (api) format = 'json';
    else if (suffix) format = SUFFIX_FORMAT[suffix]!;
    else {
      // A canonical record URL: the twin by Accept, as negotiateRecordName does.
      format = recordFormatFor(accept);
      vary = 'Accept';
      if (format !== 'html') out.push('Content-Location', `${req.url}${TWIN_SUFFIX[format]}`);
    }

    const file = root + projectionFile({ type, id }, format);
    const acceptEncoding = headers['accept-encoding'];
    const sibling = acceptEncoding ? pickEncoding(file, acceptEncoding) : null;
    if (sibling === undefined) return false;
    const cached = sibling ? sibling.cached : files.peek(file);
    if (!cached) return false;
    const compressible = sibling !== null || isCompressible(MEDIA_TYPE[format], cached.body.byteLength);
    // Identity bytes the client would rather have compressed: the app compresses them.
    if (!sibling && compressible && chooseEncodingFor(acceptEncoding) !== null) return false;
    if (compressible) vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';

    // Last, as it counts: a read handed to the app from here on would be counted twice.
    const limits = admitRead(
      addressOf(req.socket.remoteAddress, headers['x-forwarded-for'] as string | undefined, deps.trustedProxyHops),
    );
    if (!limits) return false;

    const requestId = newRequestId();
    out.push('X-Request-Id', requestId, ...limits, 'ETag', cached.etag, ...fixed[format], ...CORS);
    if (vary) out.push('Vary', vary);
    let status = 200;
    if (ifNoneMatchHits(headers['if-none-match'], cached.etag)) {
      status = 304;
      res.writeHead(304, out);
      res.end();
    } else {
      if (sibling) out.push('Content-Encoding', sibling.encoding);
      out.push('Content-Type', MEDIA_TYPE[format], 'Content-Length', String(cached.body.byteLength));
      res.writeHead(200, out);
      if (method === 'HEAD') res.end();
      else res.end(cached.body);
    }
    recordRequest(requestId, method, routeOf(api, folder), status, (performance.now() - started) / 1000);
    return true;
  };
}
