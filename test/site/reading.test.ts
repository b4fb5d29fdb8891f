/**
 * What the record pages say about a solution in words, and the order they
 * list solutions in: titles from the first line, outcome sentences from
 * `trust`, and best first by standing.
 */
import { describe, expect, it } from 'vitest';
import type { Trust } from '../../core/trust/assess.ts';
import { byStanding, recordStanding, solutionStanding } from '../../core/trust/standing.ts';
import { confidenceReason, disputeSentence, failedOn, outcomeSentence, solutionTitle } from '../../site/lib/reading.ts';

function trust(over: Partial<Trust> & { worked?: number; partially?: number; failed?: number } = {}): Trust {
  const { worked = 0, partially = 0, failed = 0, ...rest } = over;
  const independent = worked + partially + failed;
  return {
    confidence: 0,
    disputed: false,
    revision: 1,
    last_confirmed_at: null,
    basis: 'the rule',
    confirmations: {
      distinct_identities: independent,
      independent,
      worked,
      partially_worked: partially,
      did_not_work: failed,
    },
    counter_evidence: { independent: failed, did_not_work: failed, report_failure: 0, report_outdated: 0, latest: [] },
    ...rest,
  };
}
const signals = (worked: number, partially = 0, failed = 0) => ({
  worked,
  partially_worked: partially,
  did_not_work: failed,
});

describe('a solution title', () => {
  it('is the first line without Markdown markers', () => {
    expect(solutionTitle('## Raise the **inotify** limit\n\nbody')).toBe('Raise the inotify limit');
    expect(solutionTitle('- Use `npm ci` instead of [npm install](https://docs.npmjs.com)')).toBe(
      'Use npm ci instead of npm install',
    );
  });

  it('reads the Markdown as the page renders it: escapes, entities, emphasis, reference links and autolinks', () => {
    expect(
      solutionTitle(
        '**Fix:** set `pool` to \\*10\\* &amp; see [the docs][1] or <https://x.org>\n\n[1]: https://node-postgres.com',
      ),
    ).toBe('Fix: set pool to *10* & see the docs or https://x.org');
    expect(solutionTitle('> - Quote a _list_ item')).toBe('Quote a list item');
    expect(solutionTitle('[1]: https://example.org\n\nRaise the limit')).toBe('Raise the limit');
  });

  it('ends at a hard line break, and skips a long log fenced before the fix', () => {
    expect(solutionTitle('Raise the limit:  \nsudo sysctl fs.inotify.max_user_watches=524288')).toBe(
      'Raise the limit:',
    );
    expect(solutionTitle('Raise the limit:\\\nsudo sysctl -p')).toBe('Raise the limit:');
    const log = `\`\`\`\n${'npm ERR! code ENOSPC\n'.repeat(2000)}\`\`\`\n`;
    expect(solutionTitle(`${log}Free space on the build disk, then **retry**.`)).toBe(
      'Free space on the build disk, then retry.',
    );
    expect(solutionTitle('Setext title\n===\n\nbody')).toBe('Setext title');
  });

  it('is cut between characters, never inside a surrogate pair', () => {
    const title = solutionTitle(`${'a'.repeat(118)}😀😀😀`);
    expect(title).toBe(`${'a'.repeat(118)}😀…`);
    expect(title.isWellFormed()).toBe(true);
  });

  it('skips blank lines and a leading code fence', () => {
    expect(solutionTitle('\n\n```bash\nsudo sysctl -p\n```\nThen restart the watcher.')).toBe(
      'Then restart the watcher.',
    );
  });

  it('is cut at 120 characters, and says so when the text has no words', () => {
    expect(solutionTitle('x'.repeat(300))).toHaveLength(120);
    expect(solutionTitle('x'.repeat(300)).endsWith('…')).toBe(true);
    expect(solutionTitle('```\ncode only\n```')).toBe('Untitled solution');
  });
});

describe('outcomes in words', () => {
  it('counts independent agents, and where it failed', () => {
    expect(outcomeSentence(trust({ worked: 3, failed: 1 }), signals(3, 0, 1), ['node 22.x'])).toBe(
      'Worked for 3 independent agents; failed for 1 on node 22.x.',
    );
    expect(outcomeSentence(trust({ partially: 1 }), signals(0, 1))).toBe('Partly worked for 1 independent agent.');
    expect(outcomeSentence(trust({ failed: 2 }), signals(0, 0, 2))).toBe('Failed for 2 independent agents.');
  });

  it('says which reports do not count', () => {
    expect(outcomeSentence(trust(), signals(1))).toBe(
      'No independent agent has reported trying it yet. 1 other report came from its author or from agents not independent of each other, and does not count.',
    );
  });

  it('explains a confidence of 0 and a positive one', () => {
    expect(confidenceReason(trust())).toMatch(/^Confidence is 0: no agent independent of the author/);
    expect(confidenceReason(trust({ failed: 2 }))).toBe(
      'Confidence is 0: none of the 2 independent agents who reported said it worked.',
    );
    expect(confidenceReason(trust({ worked: 2, confidence: 0.342 }))).toMatch(
      /^Confidence is 0\.34 of 1: 2 of 2 independent agents said it worked\./,
    );
    expect(confidenceReason(trust({ worked: 2, confidence: 0.2, disputed: true }))).toContain(
      'multiplied by 0.5 because the solution is disputed',
    );
  });

  it('says whether it is disputed', () => {
    expect(disputeSentence(trust(), 'solution')).toBe('No one has reported this solution failing or outdated.');
    expect(disputeSentence(trust({ failed: 2, disputed: true }), 'solution')).toMatch(
      /^Disputed: 2 independent agents reported against revision 1/,
    );
  });

  it('reads failures from the current revision, by major version when reports span several', () => {
    const revisions = [
      {
        revision: 2,
        current: true,
        signals: signals(1, 0, 2),
        environments: [
          {
            key: 'node',
            values: [
              { value: '22.1.0', ...signals(0, 0, 1) },
              { value: '22.2.0', ...signals(0, 0, 1) },
              { value: '20.1.0', ...signals(1) },
            ],
            major_versions: [
              { value: '22.x', ...signals(0, 0, 2) },
              { value: '20.x', ...signals(1) },
            ],
          },
        ],
      },
    ];
    expect(failedOn(revisions)).toEqual(['node 22.x']);
  });
});

describe('best first', () => {
  it('puts confirmed before unconfirmed before disputed, then higher confidence first', () => {
    const listed = [
      { id: 'disputed', trust: trust({ worked: 5, confidence: 0.4, disputed: true }), signals: signals(5) },
      { id: 'partly', trust: trust({ partially: 1, confidence: 0.1 }), signals: signals(0, 1) },
      { id: 'weak', trust: trust({ worked: 1, confidence: 0.2 }), signals: signals(1) },
      { id: 'strong', trust: trust({ worked: 4, confidence: 0.6 }), signals: signals(4) },
    ];
    expect([...listed].sort(byStanding).map((s) => s.id)).toEqual(['strong', 'weak', 'partly', 'disputed']);
    expect(solutionStanding(listed[1]!.trust)).toBe('unconfirmed');
    expect(
      recordStanding(
        false,
        listed.map((s) => s.trust),
      ),
    ).toBe('confirmed');
    expect(
      recordStanding(
        true,
        listed.map((s) => s.trust),
      ),
    ).toBe('disputed');
  });
});
