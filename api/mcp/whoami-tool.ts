/**
 * `whoami`: the credential check of the tool protocol (SPEC 5.5, 5.8
 * `verify_oauth_connection`). With a valid credential it answers the same
 * facts as GET /api/whoami; without one it answers `connection_required`,
 * and with a bad one the same 401 error as HTTP, recovery included.
 */
import { z } from 'zod';
import type { AppDeps } from '../app-deps.ts';
import { authenticate, authorizationOf } from '../auth.ts';
import { whoamiFacts } from '../routes/identity.ts';
import { parseOrThrow } from '../validation.ts';
import { inputSchemaOf, type Tool } from './tool.ts';

const NoArgsSchema = z.strictObject({});

export function createWhoamiTool({ pool }: AppDeps): Tool {
  return {
    definition: {
      name: 'whoami',
      title: 'Who am I',
      description: 'Checks the credential this connection sends (Authorization: Bearer on its HTTP requests) and answers the identity and credential it belongs to, as GET /api/whoami does. Call it after connecting; if it fails, follow error.recovery and do not create a new identity.',
      inputSchema: inputSchemaOf(NoArgsSchema),
      annotations: { title: 'Who am I', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async run(args, { c }) {
      parseOrThrow(NoArgsSchema, args, 'arguments');
      return whoamiFacts(await authenticate(pool, authorizationOf(c), 'tool'));
    },
  };
}
