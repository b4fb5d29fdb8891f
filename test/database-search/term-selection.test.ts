/**
 * Which terms a query is matched by: a pasted trace's failing lines are read
 * first, a symptom loses the words of its telling, and the last keyword
 * level asks for two terms.
 */
import { describe, expect, it } from 'vitest';
import { failureLinesFirst, withoutFrameLines } from '../../database-search/log-prefix.ts';
import {
  anyTermQuery,
  lastResortMinimumTerms,
  minimumTerms,
  rareTerms,
  relaxedMinimumTerms,
} from '../../database-search/keyword-query.ts';
import { withAliases, withoutNarrative } from '../../database-search/term-aliases.ts';

describe('failureLinesFirst', () => {
  it('puts the lines that say a failure before the shell command and progress pasted above them', () => {
    const pasted =
      '$ docker build -t app .\nstep <n>/<n> : from node\nfailed to register layer: no space left on device';
    expect(failureLinesFirst(pasted)).toBe(
      'failed to register layer: no space left on device\n$ docker build -t app .\nstep <n>/<n> : from node',
    );
  });

  it('reads a kubectl event table from its failing row, not its header', () => {
    const table = 'type reason age from message\nwarning backoff <n>s kubelet back-off restarting failed container';
    expect(failureLinesFirst(table).split('\n')[0]).toBe(
      'warning backoff <n>s kubelet back-off restarting failed container',
    );
  });

  it('keeps a text whose lines all fail, or none do, or that is one line, as it is', () => {
    expect(failureLinesFirst('error: a\nfatal: b')).toBe('error: a\nfatal: b');
    expect(failureLinesFirst('step one\nstep two')).toBe('step one\nstep two');
    expect(failureLinesFirst('connection refused')).toBe('connection refused');
  });
});

describe('withoutFrameLines', () => {
  it("leaves out a trace's stack frames, Node's and Python's, and keeps its message", () => {
    expect(
      withoutFrameLines(
        'listen eaddrinuse <ip>:<n>\nfile util.js, line <n>, in object.exports._errnoexception\nat server.setuplistenhandle [as _listen2] (<path>)',
      ),
    ).toBe('listen eaddrinuse <ip>:<n>');
    expect(
      withoutFrameLines('mongoserverselectionerror: connect econnrefused <ip>:<n>\n  at timeout._ontimeout (<path>)'),
    ).toBe('mongoserverselectionerror: connect econnrefused <ip>:<n>');
  });

  it("leaves out the line Node prints above every unhandled 'error' event", () => {
    expect(withoutFrameLines('<path>\nthrow er; // unhandled error event\n^\ncert_has_expired')).toBe(
      '<path>\n^\ncert_has_expired',
    );
  });

  it("leaves out a Python traceback's header and each frame's source line, not the error after a frame", () => {
    expect(
      withoutFrameLines(
        'traceback (most recent call last):\nfile <path>, line <n>, in open_session\nconn = pymysql.connect(host=settings.db_host)\nfile <frozen codecs>, line <n>, in decode\nunicodedecodeerror: utf-8 codec cant decode byte <hex>',
      ),
    ).toBe('unicodedecodeerror: utf-8 codec cant decode byte <hex>');
  });

  it('keeps a text without frames, or of nothing but frames, as it is', () => {
    expect(withoutFrameLines('connect econnrefused <ip>:<n>\nretrying')).toBe(
      'connect econnrefused <ip>:<n>\nretrying',
    );
    expect(withoutFrameLines('at a (<path>)\nat b (<path>)')).toBe('at a (<path>)\nat b (<path>)');
  });
});

describe('withoutNarrative', () => {
  it('drops how a symptom was noticed and keeps what failed', () => {
    expect(withoutNarrative(["'cluster'", "'work'", "'fine'", "'till'", "'ago'", "'command'", "'fail'"])).toEqual([
      "'cluster'",
      "'command'",
      "'fail'",
    ]);
  });

  it('drops contractions the normalizer left without their apostrophe', () => {
    expect(withoutNarrative(["'im'", "'didnt'", "'start'", "'doesnt'", "'cluster'"])).toEqual(["'start'", "'cluster'"]);
  });

  it('keeps every term when fewer than two telling ones would remain', () => {
    expect(withoutNarrative(["'work'", "'fine'", "'redi'"])).toEqual(["'work'", "'fine'", "'redi'"]);
  });
});

describe('withAliases', () => {
  it('matches a clipped word to the record spelling it out', () => {
    expect(withAliases(["'db'", "'repo'", "'cert'"])).toEqual([
      "'db' | 'databas'",
      "'repo' | 'repositori'",
      "'cert' | 'certif'",
    ]);
  });
});

describe('withAliases for a symptom', () => {
  it('joins the words that describe an error to the code it prints', () => {
    expect(withAliases(["'connect'", "'refus'"], { symptom: true })).toEqual(["'connect'", "'econnrefus' | 'refus'"]);
    expect(withAliases(["'segment'", "'fault'"], { symptom: true })).toEqual([
      "'sigsegv' | 'segfault' | 'segment'",
      "'fault'",
    ]);
    expect(withAliases(["'forbidden'"], { symptom: true })).toEqual(["'403' | 'forbidden'"]);
  });

  it('joins a vocabulary group with an alias group sharing a lexeme', () => {
    expect(withAliases(["'eacc'"], { symptom: true })).toEqual(["'perm' | 'permiss' | 'eacc'"]);
    expect(withAliases(["'cert'"], { symptom: true })).toEqual(["'cert' | 'certif' | 'x509'"]);
  });

  it('leaves pasted text to the codes it prints', () => {
    expect(withAliases(["'connect'", "'refus'"])).toEqual(["'connect'", "'refus'"]);
    expect(withAliases(["'eacc'"])).toEqual(["'eacc'"]);
  });
});

describe('anyTermQuery', () => {
  it('asks for any one of the terms, an alias group as one operand', () => {
    expect(anyTermQuery(["'gradlewrappermain'", "'postgr' | 'postgresql'"])).toBe(
      "'gradlewrappermain' | ('postgr' | 'postgresql')",
    );
    expect(anyTermQuery([])).toBeNull();
  });
});

describe('rareTerms', () => {
  it('keeps the terms fewer than one document in a hundred holds', () => {
    expect(rareTerms(["'error'", "'gradlewrappermain'", "'log'"], [0.26, 0.0008, 0.14])).toEqual([
      "'gradlewrappermain'",
    ]);
    expect(rareTerms(["'error'", "'log'"], [0.26, 0.14])).toEqual([]);
  });

  it('keeps every term while the shares are unknown', () => {
    expect(rareTerms(["'error'", "'log'"], null)).toEqual(["'error'", "'log'"]);
  });
});

describe('lastResortMinimumTerms', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 2],
    [10, 2],
    [16, 2],
  ])('asks %i terms for %i', (n, k) => {
    expect(lastResortMinimumTerms(n)).toBe(k);
    expect(lastResortMinimumTerms(n)).toBeLessThanOrEqual(relaxedMinimumTerms(n));
    expect(lastResortMinimumTerms(n)).toBeLessThanOrEqual(minimumTerms(n));
  });
});
