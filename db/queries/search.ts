/**
 * SQL for search over `search_documents` (db/migrations/000003.sql).
 *
 * Parameters the caller leaves out arrive as NULL, and every branch is
 * guarded by its parameters (`$11 >= 1 AND …`), so a generic plan (the
 * API's, planned once per connection) skips what a query does not use as
 * it runs. The search statement also leaves out of its text the parts a
 * query cannot use (`MatchShape`): a generic plan still starts every node.
 *
 * The modules of search/: types.ts (what a search asks and answers), terms.ts (a query's full-text
 * terms), settings.ts (the settings a search runs under), match.ts and statement-text.ts (the search
 * statement, its shapes and its text), page.ts (shared filters and columns, rows read as a page),
 * newest.ts (what an empty query lists), champions.ts (the champion lists' upkeep) and catch-up.ts
 * (bringing the search documents up to date). Callers import them from here.
 */
export * from './search/types.ts';
export * from './search/terms.ts';
export * from './search/settings.ts';
export { findMatchingDocuments } from './search/match.ts';
export * from './search/newest.ts';
export * from './search/champions.ts';
export * from './search/catch-up.ts';
