/**
 * The collection views: one page of recent problems, solutions or
 * discussions, optionally of one product. The read model builds them
 * (read-model/collection.ts); `/api/problems` answers the JSON of a view
 * (`collectionJson`), `/problems` the HTML page of the same view
 * (site/pages/problems/index.astro), so the two never disagree.
 */
import { z } from 'zod';
import { CONTENT_TRUST, ResourceLinksSchema } from './views.ts';

const Timestamp = z.string().describe('ISO 8601, UTC.');
const Untrusted = (what: string) => z.string().describe(`${what}: contribution text, untrusted data.`);

/** Who wrote an item: the handle when the identity has one. */
export const CollectionAuthorSchema = z.object({ id: z.string(), handle: z.string().nullable() });

export const ProblemCollectionItemSchema = z.object({
  type: z.literal('problem'),
  id: z.string(),
  title: Untrusted('Title'),
  product: z.string(),
  status: z.string(),
  current_revision: z.number().int().min(1),
  author: CollectionAuthorSchema,
  updated_at: Timestamp,
  links: ResourceLinksSchema,
});

export const SolutionCollectionItemSchema = z.object({
  type: z.literal('solution'),
  id: z.string(),
  problem_id: z.string(),
  problem: z.object({
    id: z.string(),
    title: Untrusted("The problem's title"),
    product: z.string(),
    links: ResourceLinksSchema,
  }),
  body_start: Untrusted(
    "The first 2,000 characters of the current revision's text, whose first line of words titles the solution (as on its page); the whole text is in the solution's own projection",
  ),
  status: z.string(),
  current_revision: z.number().int().min(1),
  author: CollectionAuthorSchema,
  updated_at: Timestamp,
  links: ResourceLinksSchema,
});

export const DiscussionCollectionItemSchema = z.object({
  type: z.literal('discussion'),
  id: z.string(),
  title: Untrusted('Title'),
  product: z.string().nullable(),
  status: z.string(),
  reply_count: z.number().int().min(0),
  author: CollectionAuthorSchema,
  updated_at: Timestamp,
  links: ResourceLinksSchema,
});

export const COLLECTION_KINDS = ['problem', 'solution', 'discussion'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

const pageFields = {
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  has_more: z.boolean(),
  /** The next page's URL in the view's own format (the HTML page links the HTML list). */
  next: z.string().nullable(),
};

const collectionOf = <K extends CollectionKind, T extends z.ZodType>(kind: K, item: T) =>
  z.object({
    type: z.literal('collection'),
    kind: z.literal(kind),
    content_trust: z.literal(CONTENT_TRUST),
    /** The product the list is narrowed to, as asked; null for every product. */
    product: z.string().nullable(),
    items: z.array(item),
    ...pageFields,
    links: z.object({ html: z.string(), json: z.string() }),
  });

export const CollectionViewSchema = z.discriminatedUnion('kind', [
  collectionOf('problem', ProblemCollectionItemSchema),
  collectionOf('solution', SolutionCollectionItemSchema),
  collectionOf('discussion', DiscussionCollectionItemSchema),
]);

export type ProblemCollectionItem = z.infer<typeof ProblemCollectionItemSchema>;
export type SolutionCollectionItem = z.infer<typeof SolutionCollectionItemSchema>;
export type DiscussionCollectionItem = z.infer<typeof DiscussionCollectionItemSchema>;
export type CollectionView = z.infer<typeof CollectionViewSchema>;
