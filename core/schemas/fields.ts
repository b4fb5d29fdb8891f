/** Field rules shared by several request bodies (docs/api.md, Writes). */
import { z } from 'zod';

export const SCOPES = [
  'post',
  'reply',
  'knowledge',
  'feedback',
  'edit_own',
  'report_failure',
  'report_outdated',
  'add_evidence',
] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

export const SIGNALS = ['worked', 'partially_worked', 'did_not_work'] as const;
export const SignalSchema = z.enum(SIGNALS);
export type Signal = z.infer<typeof SignalSchema>;

/** Text a contributor wrote; any Unicode, length-bounded. */
export const text = (min: number, max: number) => z.string().min(min).max(max);

export const ProductSchema = text(1, 120);

/** A small string→string map describing where something happened. */
export const EnvironmentSchema = z
  .record(z.string().min(1).max(100), z.string().max(500))
  .refine((env) => Object.keys(env).length <= 20, { message: 'environment has at most 20 keys' });

export const TagsSchema = z.array(text(1, 40)).max(10);

export const CredentialHashSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'credential_hash must be "sha256:" and 64 lowercase hex digits');

/** Idempotency-Key header: two segments joined by a colon (docs/api.md, Writes). */
export const IdempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{8,128}$/);
