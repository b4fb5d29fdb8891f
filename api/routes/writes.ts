/** Every HTTP write: one handler shape, parameterised by its entry in OPERATIONS. */
import type { Context } from 'hono';
import { authorizationOf } from '../auth.ts';
import { readJsonBody } from '../http/body.ts';
import { CACHE } from '../http/representation.ts';
import type { RegisteredOperation } from '../../operations/registry.ts';
import type { SubmitAuthorisedWrite } from '../writes/write-submission.ts';

export function createWriteHandler(submit: SubmitAuthorisedWrite, spec: RegisteredOperation) {
  return async function handleWrite(c: Context): Promise<Response> {
    const answer = await submit(c, spec, {
      channel: 'http',
      authorization: authorizationOf(c),
      idempotencyKey: c.req.header('idempotency-key'),
      // The body is read last: 415/413/400 come after 401/429/403 and the key.
      readInput: async () => ({
        targetId: spec.param ? c.req.param(spec.param) : undefined,
        body: await readJsonBody(c),
      }),
      requestId: c.get('requestId'),
    });
    const headers: Record<string, string> = { 'Cache-Control': CACHE.private };
    const links = answer.receipt.resource.links;
    if (answer.status === 201 && links) headers.Location = links.html;
    return c.json(answer.receipt, answer.status, headers);
  };
}
