/** Redis connection options for BullMQ from a URL, and how its commands reach the socket. */
import type { Socket } from 'node:net';
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

/** What `coalesceCommandWrites` needs of an ioredis client: its socket, and its reconnections. */
export interface RedisLike {
  stream?: unknown;
  on(event: 'connect', listener: () => void): unknown;
}

const coalesced = new WeakSet<Socket>();

/**
 * Sends the commands a client is given in one turn of the event loop in one
 * system call: the socket is corked at the first and uncorked on the next
 * tick, after every promise then pending has run. The bytes and their order
 * are unchanged; only fewer, larger writes reach the kernel, and Redis reads
 * them in one go. A commit batch finishes its jobs together, one BullMQ
 * script each, and each write to a socket was a system call and a wake-up
 * of Redis. Applied again to each socket a reconnection makes.
 */
export function coalesceCommandWrites(client: RedisLike): void {
  const apply = () => {
    const socket = client.stream as Socket | undefined;
    if (!socket || typeof socket.cork !== 'function' || coalesced.has(socket)) return;
    coalesced.add(socket);
    let corked = false;
    const write = socket.write;
    socket.write = function writeCoalesced(this: Socket, ...args: Parameters<Socket['write']>) {
      if (!corked) {
        corked = true;
        this.cork();
        process.nextTick(() => {
          corked = false;
          this.uncork();
        });
      }
      return write.apply(this, args);
    } as Socket['write'];
  };
  apply();
  client.on('connect', apply);
}
