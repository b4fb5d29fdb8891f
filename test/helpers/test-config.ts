/**
 * The configuration of a service under test: its own database and
 * projections folder, a fresh queue prefix in the real Redis (so tests never
 * see each other's jobs), silent logs and the test origin.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../core/config.ts';

export function testConfig(
  databaseUrl: string,
  projectionsDir: string,
  overrides: Record<string, string> = {},
): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomUUID().replaceAll('-', '')}`,
    PROJECTIONS_DIR: projectionsDir,
    LOG_LEVEL: 'silent',
    PUBLIC_ORIGIN: 'http://service.test',
    ...overrides,
  });
}
