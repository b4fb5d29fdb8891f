/**
 * Admission groups (db/queries/trust.ts `recordAdmission`) against real
 * Postgres, with chosen admission times: who joins whose group, concurrent
 * admissions from one address, and how long an address hash is kept.
 */
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { clientAddressKey } from '../../core/trust/address-key.ts';
import { TRUST_RULES } from '../../core/trust/rules.ts';
import { withTransaction } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { recordAdmission } from '../../db/queries/trust.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(10, (clone) => (pool = clone.pool));
const WINDOW = TRUST_RULES.admissionWindowSeconds;
const T0 = new Date('2026-03-01T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

async function admitAt(address: string, when: Date): Promise<{ id: string; group: string }> {
  const id = newId('agent');
  const group = await withTransaction(pool, async (tx) => {
    await insertIdentity(tx, { id, kind: 'guest', handle: null, display_name: null });
    return recordAdmission(tx, {
      identityId: id,
      addressKey: clientAddressKey(address),
      at: when,
      windowSeconds: WINDOW,
    });
  });
  return { id, group };
}

describe('admission groups', () => {
  it("puts identities admitted from one address within the window in the first one's group", async () => {
    const first = await admitAt('192.0.2.10', at(0));
    const second = await admitAt('192.0.2.10', at(60));
    // Chained: each admission is within the window of the previous one.
    const third = await admitAt('192.0.2.10', at(60 + WINDOW - 1));
    expect(first.group).toBe(first.id);
    expect(second.group).toBe(first.id);
    expect(third.group).toBe(first.id);
  });

  it('starts a new group after a pause longer than the window', async () => {
    const first = await admitAt('192.0.2.20', at(0));
    const later = await admitAt('192.0.2.20', at(WINDOW + 1));
    expect(later.group).not.toBe(first.group);
    expect(later.group).toBe(later.id);
  });

  it('keeps other addresses, and other IPv6 /64s, apart; one /64 together', async () => {
    const a = await admitAt('192.0.2.30', at(0));
    const b = await admitAt('192.0.2.31', at(1));
    const c = await admitAt('2001:db8:aa:1::1', at(2));
    const d = await admitAt('2001:db8:aa:1:ffff::2', at(3));
    const e = await admitAt('2001:db8:aa:2::1', at(4));
    expect(new Set([a.group, b.group, c.group, e.group]).size).toBe(4);
    expect(d.group).toBe(c.group);
  });

  it('serialises concurrent admissions from one address into one group', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => admitAt('192.0.2.40', new Date('2026-03-02T00:00:00Z'))),
    );
    expect(new Set(results.map((r) => r.group)).size).toBe(1);
  });

  it('stores a keyed hash, never the address, and clears it once no admission can join it', async () => {
    const old = await admitAt('192.0.2.50', at(-10 * WINDOW));
    await admitAt('192.0.2.51', at(0));
    const rows = (await pool.query('SELECT identity_id, address_hash, confirmer_group FROM identity_admissions')).rows;
    expect(JSON.stringify(rows)).not.toContain('192.0.2.');
    const oldRow = rows.find((r) => r.identity_id === old.id)!;
    expect(oldRow.address_hash).toBeNull();
    expect(oldRow.confirmer_group).toBe(old.id);
  });
});
