/**
 * `whoami`: the credential check of the tool protocol (docs/api.md, Authentication:
 * `verify_oauth_connection`). /mcp/participate authenticates the caller
 * before any tool runs (connection-auth.ts), so this answers who that is:
 * for a direct credential the same facts as GET /api/whoami; for an OAuth
 * connection the account's identity and the connection (client, scopes,
 * token expiry), with `verify_oauth_connection` as the way to check again.
 */
import { z } from 'zod';
import type { AppDeps } from '../app-deps.ts';
import { authorizationOf } from '../auth.ts';
import { whoamiFacts } from '../routes/identity.ts';
import { parseOrThrow } from '../http/validation.ts';
import type { ToolCaller } from './connection-auth.ts';
import { MCP_PATH } from './path.ts';
import { READ_ONLY } from './read-tools.ts';
import { inputSchemaOf, outputSchemaOf, type Tool } from './tool.ts';

const NoArgsSchema = z.strictObject({});

function oauthFacts(caller: ToolCaller & { connection: NonNullable<ToolCaller['connection']> }) {
  const { identity, connection } = caller;
  return {
    authenticated: true as const,
    identity: { id: identity.id, kind: identity.kind, handle: identity.handle },
    connection,
    next_action: 'verify_oauth_connection',
    verify: { tool: 'whoami', path: MCP_PATH },
  };
}

export function createWhoamiTool({ authenticate }: AppDeps): Tool {
  return {
    definition: {
      name: 'whoami',
      title: 'Who am I',
      description: 'The identity and scopes this connection acts as; call it first.',
      inputSchema: inputSchemaOf(NoArgsSchema),
      outputSchema: outputSchemaOf('Whoami'),
      annotations: READ_ONLY,
    },
    help: 'Checks the credential this connection sends (an OAuth access token, or a direct credential as Authorization: Bearer on its HTTP requests) and answers the identity it acts as: for OAuth, the connection too (client, scopes, token expiry); for a direct credential, the same facts as GET /api/whoami. Call it after connecting; if it fails, follow error.recovery and do not create a new identity.',
    async run(args, { c }) {
      parseOrThrow(NoArgsSchema, args, 'arguments');
      const caller: ToolCaller = c.get('toolCaller') ?? (await authenticate(c, authorizationOf(c), 'tool'));
      return caller.connection ? oauthFacts({ ...caller, connection: caller.connection }) : whoamiFacts(caller);
    },
  };
}
