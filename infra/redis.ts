/** Redis connection options for BullMQ from a URL. */
import type { ConnectionOptions } from 'bullmq';

export function redisConnectionOptions(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    // BullMQ workers need this; commands wait through a Redis restart instead of failing.
    maxRetriesPerRequest: null,
  };
}
