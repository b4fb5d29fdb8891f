/**
 * Many socket connections onto PGlite's one session, one exchange at a time.
 *
 * pglite-socket's own queue takes protocol messages one by one, first come
 * first served, and keeps a connection's turn only inside a transaction. The
 * `pg` driver sends a parameterised query as five messages (Parse, Bind,
 * Describe, Execute, Sync), so two connections' queries interleaved: a Bind
 * met the other connection's unnamed statement ("bind message supplies 2
 * parameters, but prepared statement "" requires 7"), or a value landed in
 * the wrong statement ("malformed array literal"). Renders, queue polls and
 * commits failed that way under any concurrency, and were retried.
 *
 * This queue keeps the turn with one connection from its first message to
 * its Sync (or simple Query), and on through its transaction until it ends,
 * as one PostgreSQL backend would see it. It is handed to pglite-socket's
 * exported `PGLiteSocketHandler` (its `queryQueue` option).
 */
import type { PGlite } from '@electric-sql/pglite';

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/** Frontend messages that end an exchange: Sync ('S') and simple Query ('Q'). */
const ENDS_EXCHANGE = new Set([0x53, 0x51]);
/** Frontend messages of an unfinished extended-protocol exchange: Parse, Bind, Describe, Execute, Close, Flush. */
const IN_EXCHANGE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

export class SessionQueue {
  private readonly pending: Pending[] = [];
  private running = false;
  /** The connection whose exchange or transaction is under way, or null when any may go next. */
  private owner: number | null = null;

  private readonly db: PGlite;

  constructor(db: PGlite) {
    this.db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ handlerId, message, onData, resolve, reject });
      void this.run();
    });
  }

  getQueueLength(): number {
    return this.pending.length;
  }

  /** A connection went away: its queued messages are refused. */
  clearQueueForHandler(handlerId: number): void {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if (this.pending[i]!.handlerId === handlerId)
        this.pending.splice(i, 1)[0]!.reject(new Error('Handler disconnected'));
    }
  }

  /** A connection went away holding the session: roll its transaction back and let the others go. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    await this.run();
  }

  private next(): Pending | undefined {
    if (this.owner === null) return this.pending.shift();
    const i = this.pending.findIndex((p) => p.handlerId === this.owner);
    return i === -1 ? undefined : this.pending.splice(i, 1)[0];
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (data) => {
                bytes += data.length;
                item!.onData(data);
              },
            }),
          );
        } catch (error) {
          item.reject(error);
          continue;
        }
        const type = item.message[0]!;
        if (IN_EXCHANGE.has(type)) this.owner = item.handlerId;
        else if (ENDS_EXCHANGE.has(type) || this.owner === item.handlerId)
          this.owner = this.db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.running = false;
    }
  }
}
