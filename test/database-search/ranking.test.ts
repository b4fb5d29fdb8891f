/**
 * The ranking rules of database-search/ranking.ts, log-prefix.ts and
 * rerank.ts, one by one (docs/search.md, Ranking). The evaluation
 * (eval.test.ts) measures them together.
 */
import { describe, expect, it } from 'vitest';
import { withoutLogPrefix } from '../../database-search/log-prefix.ts';
import { normalizeLiteral, queryKeys } from '../../database-search/normalize.ts';
import {
  isPasted,
  isPlainWords,
  signatureOf,
  signatureReadsTitle,
  weightsFor,
  RANKING_WEIGHTS,
  PASTED_TITLE_WEIGHT,
} from '../../database-search/ranking.ts';
import { rerankByLiteral, rerankByTermWeight } from '../../database-search/rerank.ts';

/** Whether a record's raw text carries the query's tokens (+1 per kind), only others (-1), or none of the kind (0), as the statement scores it. */
function signatureScore(query: string, record: string): number {
  const s = signatureOf(query);
  return s.hits.reduce(
    (sum, hit, i) =>
      sum +
      (hit !== null && new RegExp(hit, 'i').test(record) ? 1 : new RegExp(s.known[i]!, 'i').test(record) ? -1 : 0),
    0,
  );
}

describe('signatureOf: raw tokens the normalizer erases', () => {
  it('reads a service port written as port=9200 as well as :9200 and port 9200', () => {
    const query = "HTTPConnectionPool(host='localhost', port=9200): Max retries exceeded";
    expect(signatureScore(query, "HTTPConnectionPool(host='localhost', port=9200)")).toBe(1);
    expect(signatureScore(query, "HTTPConnectionPool(host='localhost', port=27017)")).toBe(-1);
  });

  it('counts a port bound to an address even when it names no service, against records naming a service port', () => {
    const query = 'The connection to the server localhost:4123 was refused - did you specify the right host or port?';
    expect(signatureScore(query, 'The connection to the server 192.168.0.3:6443 was refused')).toBe(-1);
    expect(signatureScore(query, 'The connection to the server localhost:8080 was refused')).toBe(0);
    expect(
      signatureScore(
        'ssh: connect to host 10.0.0.9 port 22732: Connection refused',
        'ssh: connect to host github.com port 22: Connection refused',
      ),
    ).toBe(-1);
  });

  it('does not read line numbers, columns or clock times as ports', () => {
    expect(signatureOf('at Object.<anonymous> (/srv/app.js:132:17) at 10:38:47')).toEqual({ hits: [], known: [] });
    // 22 and 21 are well-known ports (ssh, ftp), and here a clock's minutes and seconds.
    expect(signatureOf('2024-06-15 10:22:21 [error] upstream timed out')).toEqual({ hits: [], known: [] });
  });

  it("does not read an address's last octet as a port", () => {
    // 192.168.17.128 is no address 192.168.17.1 on port 28.
    expect(signatureOf('client: 192.168.17.1, host: "192.168.17.128"')).toEqual({ hits: [], known: [] });
  });

  it("does not count a clock time in a record's text as a port it names", () => {
    const query = 'upstream timed out, upstream: "fastcgi://127.0.0.1:9000"';
    expect(signatureScore(query, '2014/01/13 03:02:21 [error] 25698#0: *8 upstream timed out')).toBe(0);
    expect(signatureScore(query, '12:22 upstream timed out, upstream: 127.0.0.1:9000')).toBe(1);
    expect(signatureScore(query, 'upstream timed out, upstream: localhost:21')).toBe(-1);
    expect(signatureScore('connect ECONNREFUSED ::1:5432', 'connect ECONNREFUSED ::1:5432')).toBe(1);
  });

  it('tells the IPv6 any-address from the IPv4 one', () => {
    // The port matches (+1); the other any-address counts against (-1), the same one for nothing.
    expect(
      signatureScore(
        'nginx: [emerg] bind() to [::]:80 failed (98: Address already in use)',
        'nginx: [emerg] bind() to 0.0.0.0:80 failed',
      ),
    ).toBe(0);
    expect(
      signatureScore(
        'nginx: [emerg] bind() to [::]:80 failed (98: Address already in use)',
        'nginx: [emerg] bind() to [::]:80 failed',
      ),
    ).toBe(1);
    expect(signatureScore('Error: listen EADDRINUSE: address already in use :::3000', 'bind 0.0.0.0:3000')).toBe(0);
  });

  it('counts the loopback of the other IP version against a record, and the same one for nothing', () => {
    const query = 'Error: connect ECONNREFUSED ::1:27017';
    expect(signatureScore(query, 'connect ECONNREFUSED 127.0.0.1:27017')).toBe(0);
    expect(signatureScore(query, 'connect ECONNREFUSED ::1:27017')).toBe(1);
    // A record naming no loopback is not below one naming the query's.
    expect(signatureScore('Host 127.0.0.1 is not allowed to connect', "Host '172.19.0.9' is not allowed")).toBe(0);
    expect(signatureScore('Host 127.0.0.1 is not allowed to connect', 'connect ECONNREFUSED 127.0.0.1')).toBe(0);
    expect(signatureScore('Host 127.0.0.1 is not allowed to connect', 'connect ECONNREFUSED ::1')).toBe(-1);
  });
});

describe('signatureReadsTitle', () => {
  it("reads a record's title for a symptom in words, only its literal for a pasted one", () => {
    expect(signatureReadsTitle(normalizeLiteral('waitress serve port 80 address already in use vps'))).toBe(true);
    expect(
      signatureReadsTitle(normalizeLiteral('nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)')),
    ).toBe(false);
  });
});

describe('withoutLogPrefix: what a collector puts before a pasted line', () => {
  it.each([
    ['ISO time and level', '2025-03-01T10:00:00.123Z ERROR connect ECONNREFUSED 127.0.0.1:5432'],
    ['compose', 'api-1  | connect ECONNREFUSED 127.0.0.1:5432'],
    ['pod', '[pod/api-5d9c7b8f6d-x2k9p/app] connect ECONNREFUSED 127.0.0.1:5432'],
    ['syslog', 'Jun 16 05:10:21 ip-10-0-2-12 app[6591]: connect ECONNREFUSED 127.0.0.1:5432'],
    ['logfmt', 'time="2025-03-01T10:00:00Z" level=error msg="connect ECONNREFUSED 127.0.0.1:5432'],
    ['GitHub Actions', '##[error]connect ECONNREFUSED 127.0.0.1:5432'],
    ['bracketed date', '[21/01/2025 10:21:37] connect ECONNREFUSED 127.0.0.1:5432'],
    ['time zone and pid', '2025-08-20 01:50:14.875 UTC [1360204] FATAL:  connect ECONNREFUSED 127.0.0.1:5432'],
    ['time and offset', '2020-08-09 12:12:19 +0530 connect ECONNREFUSED 127.0.0.1:5432'],
    ['pm2', '0|api  | connect ECONNREFUSED 127.0.0.1:5432'],
  ])('%s', (_name, line) => {
    expect(withoutLogPrefix(normalizeLiteral(line))).toBe('connect econnrefused <ip>:<n>');
  });

  it('keeps a line that is all metadata, and the message words themselves', () => {
    expect(withoutLogPrefix(normalizeLiteral('[error]'))).toBe('[error]');
    expect(withoutLogPrefix(normalizeLiteral('error[E0433]: failed to resolve'))).toBe(
      'error[e0433]: failed to resolve',
    );
  });

  it('gives query keys for the message however many prefix words come before it', () => {
    const keys = queryKeys(
      normalizeLiteral(
        'time="2025-03-01T10:00:00Z" level=error msg="Get "https://example.org/x": x509: certificate signed by unknown authority',
      ),
    );
    expect(keys).toContain('get <url> x509: certificate signed by unknown authority');
  });
});

describe('weightsFor', () => {
  it('weighs the title fully for a symptom in words, and little for a pasted literal', () => {
    expect(weightsFor('postgres connection refused when the app starts')).toBe(RANKING_WEIGHTS);
    expect(
      weightsFor(
        normalizeLiteral(
          "app/x.ts(60,22): error TS2339: Property 'onAppSettingsClicked' does not exist on type 'TopBarComponent'.",
        ),
      ).title,
    ).toBe(PASTED_TITLE_WEIGHT);
  });
});

describe('isPlainWords', () => {
  it('holds for a symptom typed in words, not for a line of log or code text among words', () => {
    expect(isPlainWords(normalizeLiteral('blockchain explorer container exited with code 137 periodically'))).toBe(
      true,
    );
    expect(
      isPlainWords(normalizeLiteral('[api] Error: connect ECONNREFUSED 127.0.0.1:5432 while warming the pool')),
    ).toBe(false);
    expect(isPlainWords(normalizeLiteral('kubectl tries localhost 8080 instead of my cluster'))).toBe(false);
  });
});

describe('isPasted', () => {
  it('takes a long sentence of plain words for a symptom, and a long line naming something in code for pasted text', () => {
    expect(
      isPasted(
        normalizeLiteral(
          'everything works fine on localhost but when I deploy it to the server I keep getting these errors from redis',
        ),
      ),
    ).toBe(false);
    expect(
      isPasted(
        normalizeLiteral(
          'node_redis reports that the connection to the server at the default address failed as nothing listens',
        ),
      ),
    ).toBe(true);
    expect(isPasted(normalizeLiteral('connection refused\nis the server running'))).toBe(true);
  });
});

describe('rerankByLiteral', () => {
  it('puts the records whose literal equals the message before the others, each group in its order', () => {
    const rows = [{ id: 'trace' }, { id: 'other' }, { id: 'exact' }, { id: 'exact2' }];
    expect(rerankByLiteral(rows, new Set(['exact2', 'exact'])).map((r) => r.id)).toEqual([
      'exact',
      'exact2',
      'trace',
      'other',
    ]);
  });

  it('keeps the order when none or all of them equal it', () => {
    const rows = [{ id: 'a' }, { id: 'b' }];
    expect(rerankByLiteral(rows, new Set()).map((r) => r.id)).toEqual(['a', 'b']);
    expect(rerankByLiteral(rows, new Set(['b', 'a'])).map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('rerankByTermWeight', () => {
  const row = (id: string, coverage: number, score: number) => ({ id, kind: 2, coverage, score });
  const weights = { coverage: 2, title: 1.5 };
  const counts = (inText: number[], inTitle: number[], length = 30) => ({ inText, inTitle, length });

  it("lifts the keyword match holding the rare terms over one holding as many common ones, by the candidates' counts without statistics", () => {
    // Terms 1-2 are held by every candidate, term 3 (say "ldap") by one only.
    const rows = [row('common', 2 / 3, 2), row('rare', 2 / 3, 1.9), row('c2', 2 / 3, 1.5), row('c3', 2 / 3, 1.4)];
    const byId = new Map([
      ['common', counts([1, 1, 0], [1, 1, 0])],
      ['rare', counts([1, 0, 1], [0, 0, 1])],
      ['c2', counts([1, 1, 0], [0, 0, 0])],
      ['c3', counts([1, 1, 0], [0, 0, 0])],
    ]);
    expect(rerankByTermWeight(rows, 3, byId, null, weights)[0]!.id).toBe('rare');
  });

  /** A row as the statement scores it: coverage and title share at their weights, plus the rest (signature, prior, trust). */
  const scored = (id: string, c: ReturnType<typeof counts>, rest = 0) => {
    const n = c.inText.length;
    const coverage = c.inText.filter((tf) => tf > 0).length / n;
    return row(
      id,
      coverage,
      weights.coverage * coverage + weights.title * (c.inTitle.filter((tf) => tf > 0).length / n) + rest,
    );
  };

  it('replaces the coverage the statement scored, weighted or plain, by the BM25F score', () => {
    // Both hold the same terms; the statement scored one by its idf-weighted share (0.9), the other by the
    // plain share (0.5): once each is replaced, the two tie and keep their order.
    const c = counts([1, 1], [0, 0]);
    const rows = [
      { id: 'plain', kind: 2, coverage: 0.5, scored_coverage: 0.5, score: weights.coverage * 0.5 },
      { id: 'weighted', kind: 2, coverage: 0.5, scored_coverage: 0.9, score: weights.coverage * 0.9 },
    ];
    const byId = new Map([
      ['plain', c],
      ['weighted', c],
    ]);
    expect(rerankByTermWeight(rows, 2, byId, [0.1, 0.2], weights).map((r) => r.id)).toEqual(['plain', 'weighted']);
  });

  it('weighs terms by their share of all documents, not by how many of the few candidates hold them', () => {
    // "git index lock file exists another git process running": both hold "git" and "file"; the near duplicate
    // also "running" (in a third of all documents), the record "process" (in one in a hundred).
    const near = counts([1, 1, 1, 0], [0, 0, 0, 0]);
    const record = counts([1, 1, 0, 1], [0, 0, 0, 0]);
    const rows = [scored('near', near), scored('record', record)];
    const byId = new Map([
      ['near', near],
      ['record', record],
    ]);
    expect(rerankByTermWeight(rows, 4, byId, [0.08, 0.09, 0.32, 0.01], weights).map((r) => r.id)).toEqual([
      'record',
      'near',
    ]);
    // Without statistics the two candidates' counts cannot tell the terms apart: the statement's order stays.
    expect(rerankByTermWeight(rows, 4, byId, null, weights).map((r) => r.id)).toEqual(['near', 'record']);
  });

  it('counts a term in the title more than one in the text only, and keeps what else the statement scored', () => {
    const inBody = counts([1, 1], [0, 0]);
    const inTitle = counts([1, 1], [1, 0]);
    const rows = [scored('body', inBody), scored('title', inTitle)];
    const byId = new Map([
      ['body', inBody],
      ['title', inTitle],
    ]);
    expect(rerankByTermWeight(rows, 2, byId, [0.01, 0.01], weights)[0]!.id).toBe('title');
    // A matching service port (signature, weight 2) still outweighs one title word.
    const withPort = [scored('body', inBody, 2), scored('title', inTitle)];
    expect(rerankByTermWeight(withPort, 2, byId, [0.01, 0.01], weights)[0]!.id).toBe('body');
  });

  it('leaves exact and substring matches in the order the statement gave them', () => {
    const rows = [{ id: 'a', kind: 0, coverage: 1, score: 6 }, row('b', 1, 7)];
    expect(rerankByTermWeight(rows, 2, new Map(), null, weights)).toBe(rows);
  });
});
