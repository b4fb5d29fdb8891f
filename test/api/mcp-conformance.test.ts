/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its
 * CLI as a client developer runs it) against both tool endpoints of a real
 * API: every server scenario that applies to a server with this service's
 * capabilities (tools and resources; stateless Streamable HTTP with JSON
 * answers) must pass every check. The scenarios that do not apply are named
 * with the reason, and the suite's own list must hold no scenario that is
 * neither, so a new scenario in a new version of the suite is looked at.
 *
 * /mcp/participate needs a credential on every request and the suite sends
 * none, so it is reached through a small forwarding proxy that adds
 * "Authorization: Bearer <secret>", as a configured client would.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Scenarios for what this server does: initialization, ping, listing tools and resources, and refusing foreign Origins. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const FIXTURE_TOOL =
  "calls a fixture tool of the suite's reference server (test_*), which a real service does not have; the tool calls themselves are tested in test/api/mcp.test.ts";
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability: the server sends no log notifications',
  'completion-complete': 'no completions capability: there are no prompts, and record ids are not completable',
  'tools-call-simple-text': FIXTURE_TOOL,
  'tools-call-image': `${FIXTURE_TOOL}; no tool answers an image`,
  'tools-call-audio': `${FIXTURE_TOOL}; no tool answers audio`,
  'tools-call-embedded-resource': FIXTURE_TOOL,
  'tools-call-mixed-content': FIXTURE_TOOL,
  'tools-call-with-logging': `${FIXTURE_TOOL}; no logging capability`,
  'tools-call-error': FIXTURE_TOOL,
  'tools-call-with-progress': `${FIXTURE_TOOL}; every call answers at once, with no progress notifications`,
  'tools-call-sampling': `${FIXTURE_TOOL}; the server never asks the client for sampling`,
  'tools-call-elicitation': `${FIXTURE_TOOL}; the server never asks the client for input`,
  'elicitation-sep1034-defaults': 'the server never asks the client for input (elicitation)',
  'elicitation-sep1330-enums': 'the server never asks the client for input (elicitation)',
  'json-schema-2020-12': `${FIXTURE_TOOL} with a given $defs schema; this server's own schemas are checked for portability in test/api/mcp-tool-list.test.ts`,
  'server-sse-polling':
    'stateless with JSON answers: no SSE streams and no sessions (GET is 405, as the transport allows)',
  'server-sse-multiple-streams': 'stateless with JSON answers: no SSE streams and no sessions',
  'resources-read-text':
    'reads the fixture resource test://static-text; records are read in test/api/mcp-parity.test.ts',
  'resources-read-binary': 'reads the fixture resource test://static-binary; no resource here is binary',
  'resources-templates-read':
    'reads the fixture template test://template/{id}/data; record templates are read in test/api/mcp-resources.test.ts',
  'resources-subscribe': 'no subscriptions: stateless, and records change through the public change feed',
  'resources-unsubscribe': 'no subscriptions: stateless',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability',
  'prompts-get-with-args': 'no prompts capability',
  'prompts-get-embedded-resource': 'no prompts capability',
  'prompts-get-with-image': 'no prompts capability',
};
/** The suite's scope note: DNS rebinding protection is for servers without authentication; /mcp/participate refuses any call without a credential (401). */
const NOT_FOR_PARTICIPATE = new Set(['dns-rebinding-protection']);

let stack: Stack;
let agent: Agent;
let out: string;
let proxy: Server;
let proxyBase: string;

/** Forwards to /mcp/participate with the agent's credential; its own Origin becomes the service's, as a same-site client's. */
function startProxy(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    headers.set('authorization', `Bearer ${agent.secret}`);
    if (headers.get('origin') === proxyBase) headers.set('origin', stack.base);
    const answer = await fetch(`${stack.base}/mcp/participate`, {
      method: req.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(
      answer.status,
      Object.fromEntries(
        [...answer.headers].filter(([name]) => name !== 'content-encoding' && name !== 'content-length'),
      ),
    );
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  stack = await startStack({}, { worker: false, originFromPort: true });
  agent = await admit(stack.base);
  out = await mkdtemp(path.join(tmpdir(), 'ak-conformance-'));
  proxy = await startProxy();
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await stack.close();
  await rm(out, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs one scenario with the suite's CLI and answers its checks (from the results it saves). */
async function runScenario(scenario: string, url: string): Promise<Check[]> {
  const dir = await mkdtemp(path.join(out, `${scenario}-`));
  await run(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario, '-o', dir], {
    maxBuffer: 1 << 26,
  }).catch((error: { stdout?: string }) => error);
  const [results] = await readdir(dir);
  return JSON.parse(await readFile(path.join(dir, results!, 'checks.json'), 'utf8')) as Check[];
}

describe('the MCP conformance suite', () => {
  it('has no server scenario that is neither run here nor named as not applicable, with the reason', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'list']);
    const server = stdout.split('Client scenarios')[0]!;
    const listed = [...server.matchAll(/^\s+- ([a-z0-9-]+) \[/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  }, 60_000);

  for (const endpoint of ['/mcp/read', '/mcp', '/mcp/participate']) {
    it.each(APPLICABLE.filter((s) => endpoint !== '/mcp/participate' || !NOT_FOR_PARTICIPATE.has(s)))(
      `passes every check of %s on ${endpoint}`,
      async (scenario) => {
        const url = endpoint === '/mcp/participate' ? `${proxyBase}/mcp` : `${stack.base}${endpoint}`;
        const checks = await runScenario(scenario, url);
        expect(checks.length).toBeGreaterThan(0);
        const notPassed = checks
          .filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO')
          .map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`);
        expect(notPassed).toEqual([]);
      },
      120_000,
    );
  }
});
