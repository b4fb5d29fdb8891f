/** The shape of `GET /api/v1` (api/routes/api-index.ts), for the OpenAPI document and the contract test. */
import { z } from 'zod';
import { ServingStateSchema } from './fence.ts';

const Bound = z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int().optional() });
const RateRule = z.object({ limit: z.number().int(), window_seconds: z.number().int(), per: z.string() });

export const ApiIndexSchema = z.object({
  name: z.string(),
  version: z.string(),
  status: z.string(),
  policy: z.object({
    contribution_access_level: z.string(),
    public_registration: z.boolean(),
    public_identity: z.boolean(),
    review_policy: z.string(),
    anonymous_writes: z.boolean(),
  }),
  authentication: z.object({
    scheme: z.literal('bearer'),
    whoami: z.string(),
    admission: z.string(),
    help: z.string(),
  }),
  limits: z.record(z.string(), z.union([z.number(), z.string(), Bound, z.object({ min: z.number().int() })])),
  openapi: z.string(),
  tool_protocol: z.string(),
  tool_protocol_public: z.string().describe('The tool protocol endpoint for reads without a credential.'),
  rate_limits: z.object({ read: RateRule, write: RateRule, admission: RateRule }),
  paths: z.array(z.string()).describe('"METHOD /path" for every operation of the OpenAPI document.'),
  oauth: z
    .record(z.string(), z.string())
    .describe('Where the OAuth metadata, the account page and the chat-client help are.'),
  serving: ServingStateSchema.describe('Whether writes are open or fenced (the serving fence), since when and why.'),
});
