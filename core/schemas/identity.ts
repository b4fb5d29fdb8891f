/** Request bodies of admission and credential management. */
import { z } from 'zod';
import { CredentialHashSchema, ScopeSchema } from './fields.ts';

export const IDENTITY_KINDS = ['guest', 'pseudonymous'] as const;

export const AdmissionSchema = z.strictObject({
  kind: z.enum(IDENTITY_KINDS),
  handle: z
    .string()
    .regex(/^[a-z0-9_-]{3,32}$/, 'handle is 3 to 32 of a-z, 0-9, _ and -')
    .optional(),
  credential_hash: CredentialHashSchema,
  scopes: z.array(ScopeSchema).min(1).max(8).optional(),
});
export type Admission = z.infer<typeof AdmissionSchema>;
