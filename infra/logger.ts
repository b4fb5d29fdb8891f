/**
 * Structured logs. Secrets must never reach a log line: bearer headers,
 * credential hashes and idempotency keys are redacted wherever they appear
 * in logged objects, and nothing logs raw request headers or bodies.
 */
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { stdoutDestination } from './log-destination.ts';

export type { Logger };

export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'credential_hash',
  '*.credential_hash',
  'body.credential_hash',
  'idempotencyKey',
  '*.idempotencyKey',
  'idempotency_key',
  '*.idempotency_key',
  'secret',
  '*.secret',
];

/**
 * Where a process logs by default. A person watching a terminal reads lines
 * (pino-pretty: time, level, name, message, fields indented); anything else
 * (a pipe, a file, a log collector) gets JSON lines in batches.
 */
export function defaultLogDestination(stdout: { isTTY?: boolean } = process.stdout): pino.DestinationStream {
  if (!stdout.isTTY) return stdoutDestination();
  // Synchronous, as the batched destination is on exit: a crash's last lines are not lost.
  return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/** A logger writing to `destination`, by default defaultLogDestination(). */
export function createLogger(
  level: string,
  name: string,
  destination: pino.DestinationStream = defaultLogDestination(),
): Logger {
  return pino({ level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}

/**
 * Writes one kind of line, `logger.info({ ...fields }, msg)`, from the fields
 * already as JSON: the same bytes pino would write, to the same destination.
 * For the request log (api/http/observability.ts), whose fields are few and mostly
 * the same from one line to the next, so the caller builds their JSON once
 * per route, method and status. pino's own call walks the object and escapes
 * every string on every line, about half of what recording a request cost
 * (bench/HISTORY.md). A logger configured with anything that changes a line
 * (a mixin, a log formatter, a write hook, a nested key, a message prefix,
 * a destination that wants metadata) gets pino's own call instead.
 * test/api/request-log.test.ts holds both ways to the same output.
 *
 * `fieldsJson` is `,"name":value` pairs, in the order pino would write them.
 */
export function infoLineWriter(logger: Logger, msg: string): (fieldsJson: string) => void {
  const s = pino.symbols as typeof pino.symbols & { msgPrefixSym?: symbol };
  const own = logger as unknown as Record<symbol, unknown>;
  const formatters = own[s.formattersSym] as { log?: unknown } | undefined;
  const hooks = own[s.hooksSym] as { streamWrite?: unknown } | undefined;
  const stream = own[s.streamSym] as { write(line: string): void } & Record<symbol, unknown>;
  const plain =
    !own[s.mixinSym] &&
    !formatters?.log &&
    !hooks?.streamWrite &&
    !own[s.nestedKeySym] &&
    (s.msgPrefixSym === undefined || own[s.msgPrefixSym] === undefined) &&
    stream[s.needsMetadataGsym] !== true;
  if (!plain) return (fieldsJson) => logger.info(JSON.parse(`{${fieldsJson.slice(1)}}`) as object, msg);

  const info = logger.levels.values.info!;
  const time = own[s.timeSym] as () => string;
  const tail = `,${JSON.stringify(own[s.messageKeySym])}:${JSON.stringify(msg)}${own[s.endSym] as string}`;
  return function writeInfoLine(fieldsJson) {
    // Read per line: a logger's level may be changed while it runs.
    if (logger.levelVal > info) return;
    const head = (own[s.lsCacheSym] as Record<number, string>)[info]!;
    stream.write(head + time() + (own[s.chindingsSym] as string) + fieldsJson + tail);
  };
}
