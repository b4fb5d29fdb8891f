import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the long fault tests (worker kills under load,
 * Redis and PostgreSQL restarts). Each file runs its own private Redis and
 * PostgreSQL, so they need neither the shared services nor the template
 * database; files run one at a time to keep the load bounded.
 */
export default defineConfig({
  test: {
    include: ['test/faults-long/**/*.test.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 3 * 60_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
