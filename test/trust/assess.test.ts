import { describe, expect, it } from 'vitest';
import {
  assessTrust,
  summarizeTrust,
  trustAt,
  type CounterFeedback,
  type OutcomeReport,
  type TrustInput,
} from '../../core/trust/assess.ts';
import { clientAddressKey } from '../../core/trust/address-key.ts';
import { environmentsOf, majorVersionOf } from '../../core/trust/breakdown.ts';
import { decayFactor, wilsonLowerBound } from '../../core/trust/confidence.ts';
import { TRUST_RULES } from '../../core/trust/rules.ts';

const T0 = new Date('2026-01-01T00:00:00Z');
const later = (days: number, from = T0) => new Date(from.getTime() + days * 86_400_000);
const AUTHOR = { identityId: 'agt_author', group: 'agt_author' };

const report = (
  identityId: string,
  signal: OutcomeReport['signal'],
  at = T0,
  group: string | null = null,
  note: string | null = null,
): OutcomeReport => ({ identityId, group, signal, at, note });
const feedback = (
  identityId: string,
  kind: CounterFeedback['kind'],
  at = T0,
  group: string | null = null,
): CounterFeedback => ({ identityId, group, kind, at, note: `${kind} from ${identityId}` });
const input = (outcomes: OutcomeReport[], fb: CounterFeedback[] = []): TrustInput => ({
  revision: 1,
  author: AUTHOR,
  outcomes,
  feedback: fb,
});

describe('Wilson lower bound', () => {
  it.each([
    [0, 0, 0],
    [1, 1, 0.2065],
    [5, 5, 0.5655],
    [0, 4, 0],
    [8, 10, 0.4902],
  ])('of %d successes in %d is %f', (s, n, expected) => {
    expect(wilsonLowerBound(s, n)).toBeCloseTo(expected, 3);
  });

  it('grows with the number of agreeing confirmers', () => {
    expect(wilsonLowerBound(10, 10)).toBeGreaterThan(wilsonLowerBound(3, 3));
  });
});

describe('confidence from independent confirmations', () => {
  it('counts an identity once per revision, by its latest report', () => {
    const trust = assessTrust(
      input([report('agt_a', 'worked', T0), report('agt_a', 'did_not_work', later(1))]),
      later(1),
    );
    expect(trust.confirmations).toEqual({
      distinct_identities: 1,
      independent: 1,
      worked: 0,
      partially_worked: 0,
      did_not_work: 1,
    });
    expect(trust.confidence).toBe(0);
  });

  it('the same identity reporting worked twice is one confirmation', () => {
    const once = assessTrust(input([report('agt_a', 'worked')]), T0);
    const twice = assessTrust(input([report('agt_a', 'worked'), report('agt_a', 'worked', later(0.1))]), T0);
    expect(twice.confirmations.worked).toBe(1);
    expect(twice.confidence).toBe(once.confidence);
  });

  it('ignores the author reporting on their own solution', () => {
    const trust = assessTrust(input([report('agt_author', 'worked'), report('agt_author', 'worked', later(0.1))]), T0);
    expect(trust.confirmations).toEqual({
      distinct_identities: 0,
      independent: 0,
      worked: 0,
      partially_worked: 0,
      did_not_work: 0,
    });
    expect(trust.confidence).toBe(0);
    expect(trust.last_confirmed_at).toBeNull();
  });

  it("ignores identities admitted in the author's group", () => {
    const trust = assessTrust(input([report('agt_sock', 'worked', T0, 'agt_author')]), T0);
    expect(trust.confirmations.independent).toBe(0);
  });

  it('counts a burst of fresh identities admitted from one address as one confirmer', () => {
    const burst = Array.from({ length: 10 }, (_, i) => report(`agt_sock${i}`, 'worked', later(i / 100), 'agt_sock0'));
    const trust = assessTrust(input(burst), T0);
    expect(trust.confirmations).toEqual({
      distinct_identities: 10,
      independent: 1,
      worked: 1,
      partially_worked: 0,
      did_not_work: 0,
    });
    expect(trust.confidence).toBe(assessTrust(input([report('agt_one', 'worked')]), T0).confidence);
  });

  it('gives confidence as the Wilson bound of worked plus half of partially worked', () => {
    const trust = assessTrust(
      input([report('agt_a', 'worked'), report('agt_b', 'worked'), report('agt_c', 'partially_worked')]),
      T0,
    );
    expect(trust.confidence).toBeCloseTo(wilsonLowerBound(2 + TRUST_RULES.partialCredit, 3), 3);
    expect(trust.last_confirmed_at).toBe(T0.toISOString());
    expect(trust.disputed).toBe(false);
    expect(trust.basis).toMatch(
      /^Lower bound of the Wilson score interval .* 2 worked and 1 partially worked .* 3 independent confirmers of revision 1 .*\.$/,
    );
  });

  it('decays with the days since the last independent worked report, by an injected clock', () => {
    const summary = summarizeTrust(input([report('agt_a', 'worked'), report('agt_b', 'worked')]));
    const fresh = trustAt(summary, T0).confidence;
    const halfLife = trustAt(summary, later(TRUST_RULES.halfLifeDays)).confidence;
    const twoHalfLives = trustAt(summary, later(2 * TRUST_RULES.halfLifeDays)).confidence;
    expect(fresh).toBeGreaterThan(0);
    expect(halfLife).toBeCloseTo(fresh / 2, 2);
    expect(twoHalfLives).toBeCloseTo(fresh / 4, 2);
    // Whole days only: the same day renders the same bytes.
    expect(trustAt(summary, new Date(T0.getTime() + 23 * 3_600_000)).confidence).toBe(fresh);
  });

  it('decays from the newest worked report, so a fresh confirmation restores the confidence', () => {
    const old = assessTrust(input([report('agt_a', 'worked'), report('agt_b', 'worked')]), later(360));
    const renewed = assessTrust(input([report('agt_a', 'worked'), report('agt_b', 'worked', later(360))]), later(360));
    expect(renewed.confidence).toBeGreaterThan(old.confidence * 3);
    expect(renewed.last_confirmed_at).toBe(later(360).toISOString());
  });

  it('treats a report dated after the clock as no age', () => {
    expect(decayFactor(later(2), T0)).toBe(1);
  });
});

describe('disputed, not deleted', () => {
  it('is disputed by two independent did_not_work reports against one worked', () => {
    const trust = assessTrust(
      input([
        report('agt_a', 'worked'),
        report('agt_b', 'did_not_work', later(1), null, 'fails on 4.x'),
        report('agt_c', 'did_not_work', later(2)),
      ]),
      later(2),
    );
    expect(trust.disputed).toBe(true);
    expect(trust.counter_evidence).toMatchObject({
      independent: 2,
      did_not_work: 2,
      report_failure: 0,
      report_outdated: 0,
    });
    expect(trust.counter_evidence.latest.map((n) => n.reporter.id)).toEqual(['agt_c', 'agt_b']);
    expect(trust.counter_evidence.latest[1]).toEqual({
      kind: 'did_not_work',
      note: 'fails on 4.x',
      reporter: { id: 'agt_b', handle: null },
      reported_at: later(1).toISOString(),
    });
    const undisputed = wilsonLowerBound(1, 3);
    expect(trust.confidence).toBeCloseTo(undisputed * TRUST_RULES.disputedFactor, 3);
    expect(trust.basis).toMatch(/disputed\.$/);
  });

  it('is not disputed by one did_not_work report, however often it is sent', () => {
    const trust = assessTrust(
      input([report('agt_b', 'did_not_work'), report('agt_b', 'did_not_work', later(1))]),
      later(1),
    );
    expect(trust.disputed).toBe(false);
  });

  it('is not disputed when the counter-evidence comes from one address burst', () => {
    const trust = assessTrust(
      input(
        [],
        [feedback('agt_x1', 'report_failure', T0, 'agt_x1'), feedback('agt_x2', 'report_outdated', T0, 'agt_x1')],
      ),
      T0,
    );
    expect(trust.disputed).toBe(false);
    expect(trust.counter_evidence.independent).toBe(1);
  });

  it('is disputed by report_failure and report_outdated feedback from distinct identities', () => {
    const trust = assessTrust(
      input([], [feedback('agt_x', 'report_failure'), feedback('agt_y', 'report_outdated', later(1))]),
      later(1),
    );
    expect(trust.disputed).toBe(true);
    expect(trust.counter_evidence).toMatchObject({
      independent: 2,
      did_not_work: 0,
      report_failure: 1,
      report_outdated: 1,
    });
  });

  it("ignores the author's own counter-evidence", () => {
    const trust = assessTrust(
      input([], [feedback('agt_author', 'report_failure'), feedback('agt_y', 'report_outdated')]),
      T0,
    );
    expect(trust.disputed).toBe(false);
  });

  it('is not disputed when independent worked reports outnumber the counter-evidence', () => {
    const trust = assessTrust(
      input([
        report('agt_a', 'worked'),
        report('agt_b', 'worked'),
        report('agt_c', 'worked'),
        report('agt_d', 'did_not_work'),
        report('agt_e', 'did_not_work'),
      ]),
      T0,
    );
    expect(trust.disputed).toBe(false);
  });
});

describe('client address keys', () => {
  it.each([
    ['203.0.113.7', 'ipv4:203.0.113.7'],
    ['::ffff:203.0.113.7', 'ipv4:203.0.113.7'],
    ['2001:db8:1:2::1', 'ipv6:20010db800010002/64'],
    ['2001:db8:1:2:ffff:1:2:3', 'ipv6:20010db800010002/64'],
    ['fe80::1%eth0', 'ipv6:fe80000000000000/64'],
    ['unknown', 'other:unknown'],
  ])('keys %s as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });
});

describe('outcomes by environment', () => {
  const at = T0;
  const o = (identityId: string, signal: OutcomeReport['signal'], environment: Record<string, string>) => ({
    identityId,
    group: null,
    signal,
    at,
    note: null,
    environment,
  });

  it.each([
    ['3', '3.x'],
    ['v3.2', '3.x'],
    ['3.2.1-rc1', '3.x'],
    ['14.21.3', '14.x'],
    [' 4.0 ', '4.x'],
    ['linux', null],
    ['3.x', null],
    ['ubuntu 22.04', null],
    ['', null],
  ])('reads %j as major version %j', (value, major) => {
    expect(majorVersionOf(value)).toBe(major);
  });

  it('counts each value and groups version values by major, most reported first', () => {
    const envs = environmentsOf([
      o('a', 'worked', { version: '3.2', os: 'linux' }),
      o('b', 'worked', { version: '3.1' }),
      o('c', 'did_not_work', { version: '4.0', os: 'linux' }),
      o('d', 'partially_worked', { os: 'mac' }),
    ]);
    expect(envs.map((e) => e.key)).toEqual(['os', 'version']);
    expect(envs[0]).toEqual({
      key: 'os',
      values: [
        { value: 'linux', worked: 1, partially_worked: 0, did_not_work: 1 },
        { value: 'mac', worked: 0, partially_worked: 1, did_not_work: 0 },
      ],
      major_versions: [],
    });
    expect(envs[1]!.major_versions).toEqual([
      { value: '3.x', worked: 2, partially_worked: 0, did_not_work: 0 },
      { value: '4.x', worked: 0, partially_worked: 0, did_not_work: 1 },
    ]);
  });
});
