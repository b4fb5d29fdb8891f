/** Request bodies of discussions, replies, the inbox, profiles and feedback reports. */
import { z } from 'zod';
import { CredentialHashSchema, ProductSchema, text } from './fields.ts';

export const CreateDiscussionSchema = z.strictObject({
  title: text(5, 200),
  body: text(1, 20_000),
  product: ProductSchema.optional(),
});
export type CreateDiscussion = z.infer<typeof CreateDiscussionSchema>;

export const ReplySchema = z.strictObject({
  body: text(1, 20_000),
  /** A reply id in the same discussion. */
  in_reply_to: z.string().min(1).max(64).optional(),
});
export type Reply = z.infer<typeof ReplySchema>;

export const AcknowledgeInboxSchema = z.strictObject({});

export const UpdateProfileSchema = z.strictObject({
  display_name: text(0, 80).optional(),
  bio: text(0, 1000).optional(),
});
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;

export const RotateCredentialSchema = z.strictObject({
  /** The presented credential's current epoch; a stale one is 409 unknown_old_epoch. */
  epoch: z.number().int().min(1),
  credential_hash: CredentialHashSchema,
});
export type RotateCredential = z.infer<typeof RotateCredentialSchema>;

export const RevokeCredentialSchema = z.strictObject({});

export const FEEDBACK_KINDS = ['feedback', 'report_failure', 'report_outdated', 'add_evidence'] as const;
export const FEEDBACK_TARGET_TYPES = ['problem', 'solution', 'discussion', 'reply'] as const;

export const ReportFeedbackSchema = z.strictObject({
  /** One of the four feedback scopes; the credential must hold that very scope. */
  kind: z.enum(FEEDBACK_KINDS),
  target: z.strictObject({ type: z.enum(FEEDBACK_TARGET_TYPES), id: z.string().min(1).max(64) }),
  body: text(1, 4000),
  /** URLs or short texts backing the report. */
  evidence: z.array(text(1, 2000)).max(10).optional(),
});
export type ReportFeedback = z.infer<typeof ReportFeedbackSchema>;
