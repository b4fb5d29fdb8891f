/**
 * Bench client (own process): create_problem writes in a closed loop, each
 * with its own Idempotency-Key; a write counts when its receipt (201,
 * committed) arrives. Prints the loop's result as JSON.
 *
 * Requests go through node:http on keep-alive connections, one per writer,
 * not fetch: undici's Request, Headers and web streams cost this process
 * about 1.1–1.6 ms of CPU per write, on the same two cores as the service it
 * measures (pgbench, the floor, sends its transactions from C at ~0.2 ms).
 */
import { Agent, request } from 'node:http';
import { clientArgs } from '../lib/child.ts';
import { runClosedLoop, type LoopLimits } from '../lib/closed-loop.ts';
import { problemContent } from '../lib/seed.ts';

interface Args extends LoopLimits {
  base: string;
  secret: string;
  run: string;
}

const args = clientArgs<Args>();
const target = new URL('/api/problems', args.base);
const agent = new Agent({ keepAlive: true, maxSockets: args.concurrency });

/** POSTs `body`; resolves with the status and the answer's text. */
function post(body: string, key: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${args.secret}`,
          'idempotency-key': key,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const result = await runClosedLoop(args, async (i) => {
  const { status, text } = await post(JSON.stringify(problemContent(args.run, i)), `bench:${args.run}-write-${i}`);
  if (status !== 201) throw new Error(`status ${status}`);
  if (!text.includes('"committed"')) throw new Error('201 without a committed receipt');
});
agent.destroy();
process.stdout.write(JSON.stringify(result));
