/**
 * Bench client (own process): create_problem writes in a closed loop, each
 * with its own Idempotency-Key; a write counts when its receipt (201,
 * committed) arrives. Prints the loop's result as JSON.
 */
import { clientArgs } from '../lib/child.ts';
import { runClosedLoop, type LoopLimits } from '../lib/closed-loop.ts';
import { problemContent } from '../lib/seed.ts';

interface Args extends LoopLimits {
  base: string;
  secret: string;
  run: string;
}

const args = clientArgs<Args>();
const result = await runClosedLoop(args, async (i) => {
  const res = await fetch(`${args.base}/api/problems`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${args.secret}`,
      'idempotency-key': `bench:${args.run}-write-${i}`,
    },
    body: JSON.stringify(problemContent(args.run, i)),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`status ${res.status}`);
  if (!text.includes('"committed"')) throw new Error('201 without a committed receipt');
});
process.stdout.write(JSON.stringify(result));
