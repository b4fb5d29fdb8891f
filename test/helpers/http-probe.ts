/**
 * HTTP as a fuzzer needs it: requests sent exactly as given (node:http, no
 * URL normalisation, no header checks beyond Node's own), raw bytes on a
 * socket for what no client library would send, and one check of an answer
 * against the contract (no 5xx, the Error shape, no secret echoed).
 */
import http from 'node:http';
import net from 'node:net';
import { ErrorBodySchema } from '../../core/schemas/responses.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** One request on its own connection; rejects when no answer comes in `timeoutMs`. */
export function sendRequest(port: number, probe: Probe, timeoutMs = 20_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: probe.method,
        path: probe.path,
        headers: probe.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : (v ?? '');
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(probe.body);
  });
}

/**
 * Writes `bytes` and reads the first response. A request whose framing
 * promises more than was sent gets no answer until the server sees the end
 * of the stream, so after `patienceMs` without one the socket is half-closed
 * (not at once: Node's server drops a request whose client half-closed before
 * the answer, so early half-closing would lose most answers). Returns null when
 * the server closed without answering; rejects after `timeoutMs`.
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 20_000, patienceMs = 1500): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(halfClose);
      socket.destroy();
      if (error) return reject(error);
      try {
        resolve(parseFirstResponse(Buffer.concat(chunks)));
      } catch (parseError) {
        reject(parseError as Error);
      }
    };
    const timer = setTimeout(() => finish(new Error(`connection still open after ${timeoutMs} ms`)), timeoutMs);
    const halfClose = setTimeout(() => socket.end(), patienceMs);
    socket.on('close', () => clearTimeout(halfClose));
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // One complete response is all we judge; do not wait for a keep-alive close.
      const whole = Buffer.concat(chunks);
      try {
        const parsed = parseFirstResponse(whole, true);
        if (parsed) finish();
      } catch {
        // incomplete: keep reading
      }
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // A reset after the answer was written (the server closed on a bad request) is not an error.
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' || e.code === 'EPIPE' ? finish() : finish(e),
    );
  });
}

/** The first HTTP/1.x response in `bytes` (Content-Length or chunked framing). */
function parseFirstResponse(bytes: Buffer, requireComplete = false): Answer | null {
  if (bytes.length === 0) {
    if (requireComplete) throw new Error('incomplete');
    return null;
  }
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(bytes.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!match) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    headers[name] = headers[name] ? `${headers[name]}, ${line.slice(i + 1).trim()}` : line.slice(i + 1).trim();
  }
  let rest = bytes.subarray(end + 4);
  const status = Number(match[1]);
  // An interim answer (100 Continue) precedes the real one.
  if (status >= 100 && status < 200) return parseFirstResponse(rest, requireComplete);
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (requireComplete && rest.length < length) throw new Error('incomplete');
    rest = rest.subarray(0, length);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const body: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) {
        if (requireComplete) throw new Error('incomplete');
        break;
      }
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      body.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    rest = Buffer.concat(body);
  } else if (requireComplete && status !== 204 && status !== 304) {
    // No framing: the body runs to the close.
    throw new Error('incomplete');
  }
  return { status, headers, body: rest };
}

/**
 * What docs/api.md demands of any answer to a well- or ill-formed request
 * while every dependency is up: no 5xx; an error answer with a body carries
 * the Error shape with its own status (on the tool endpoints, as a JSON-RPC
 * error's data); no header or body contains a bearer
 * secret the client sent.
 */
export function contractViolations(
  answer: Answer,
  request: { method: string; secrets: string[]; path?: string },
): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  const hasBody = request.method !== 'HEAD' && answer.status !== 304 && answer.status !== 204;
  if (answer.status >= 400 && hasBody) {
    if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
      problems.push(`error ${answer.status} with content-type ${answer.headers['content-type']}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      problems.push(
        `error ${answer.status} body is not JSON: ${JSON.stringify(answer.body.toString('latin1').slice(0, 200))}`,
      );
    }
    // The tool endpoints speak JSON-RPC: a refused message is a JSON-RPC error carrying the Error shape as its data.
    // The path is read as the server reads it: a `#` ends it, as a `?` does.
    const toolProtocol = request.path !== undefined && /^\/mcp(\/|\?|#|$)/.test(request.path);
    if (toolProtocol && (json as { jsonrpc?: unknown } | undefined)?.jsonrpc === '2.0') {
      json = (json as { error?: { data?: unknown } }).error?.data;
    }
    if (json !== undefined) {
      const parsed = ErrorBodySchema.safeParse(json);
      if (!parsed.success)
        problems.push(`error ${answer.status} is not the Error shape: ${answer.body.toString('utf8').slice(0, 300)}`);
      else if (parsed.data.error.status !== answer.status)
        problems.push(`error.status ${parsed.data.error.status} on a ${answer.status}`);
    }
  }
  const text = `${Object.entries(answer.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n${answer.body.toString('latin1')}\n${answer.body.toString('utf8')}`;
  for (const secret of request.secrets) {
    if (secret.length >= 16 && text.includes(secret)) problems.push(`answer ${answer.status} echoes a bearer secret`);
  }
  return problems;
}
