/**
 * Bench client (own process): edits one problem again and again; after each
 * receipt (201) polls nginx with If-None-Match: <the old ETag> until it
 * serves the file of the new revision. Prints the timings as JSON.
 */
import { clientArgs } from '../lib/child.ts';

interface Args {
  service: string;
  edge: string;
  secret: string;
  problemId: string;
  revision: number;
  run: string;
  max: number;
  seconds: number;
  pollMs: number;
  /** Give up on one write after this long (it then counts as a failure). */
  timeoutMs: number;
}

export interface VisibilityResult {
  /** From the receipt's arrival to the first answer carrying the new revision. */
  visibleAfterReceiptMs: number[];
  /** From sending the write to that answer. */
  visibleAfterSendMs: number[];
  receiptMs: number[];
  polls: number;
  failures: string[];
}

const args = clientArgs<Args>();
const url = `${args.edge}/api/v1/problems/${args.problemId}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const result: VisibilityResult = {
  visibleAfterReceiptMs: [],
  visibleAfterSendMs: [],
  receiptMs: [],
  polls: 0,
  failures: [],
};

let etag = (await fetch(url).then(async (r) => {
  await r.arrayBuffer();
  return r.headers.get('etag');
}))!;
let revision = args.revision;
const until = performance.now() + args.seconds * 1000;
for (let i = 0; i < args.max && performance.now() < until; i++) {
  const sent = performance.now();
  const res = await fetch(`${args.service}/api/problems/${args.problemId}`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${args.secret}`,
      'idempotency-key': `bench:${args.run}-edit-${i}`,
    },
    body: JSON.stringify({ base_revision: revision, title: `Edited by the visibility bench, edit ${i}` }),
  });
  const receipt = (await res.json()) as { resource?: { revision: number } };
  const received = performance.now();
  if (res.status !== 201 || !receipt.resource) {
    result.failures.push(`edit ${i}: status ${res.status}`);
    break;
  }
  revision = receipt.resource.revision;
  for (;;) {
    result.polls++;
    const poll = await fetch(url, { headers: { 'if-none-match': etag } });
    if (poll.status === 200) {
      const body = (await poll.json()) as { revision: number };
      etag = poll.headers.get('etag')!;
      if (body.revision >= revision) break;
    } else {
      await poll.arrayBuffer();
    }
    if (performance.now() - received > args.timeoutMs) {
      result.failures.push(`edit ${i}: revision ${revision} not served within ${args.timeoutMs} ms`);
      break;
    }
    await sleep(args.pollMs);
  }
  const visible = performance.now();
  if (result.failures.length) break;
  result.receiptMs.push(received - sent);
  result.visibleAfterReceiptMs.push(visible - received);
  result.visibleAfterSendMs.push(visible - sent);
}
process.stdout.write(JSON.stringify(result));
