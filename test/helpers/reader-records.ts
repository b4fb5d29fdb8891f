/**
 * Records as a reader meets them: a problem whose text is Markdown (a code
 * fence, inline code, a list, a link), two solutions with outcomes from
 * independent agents (each admitted from its own address), one failure on
 * another Node major. The browser tests, the screenshots and the Lighthouse
 * script all read these pages.
 */
import { admit, send, type Agent } from './client.ts';

export interface ReaderRecords {
  problem: string;
  best: string;
  weaker: string;
  discussion: string;
  /** A word only these records hold (letters only, so Pagefind keeps it whole). */
  word: string;
}

let nextAddress = 10;
const agentFrom = (base: string): Promise<Agent> =>
  admit(base, 'pseudonymous', {}, { 'x-forwarded-for': `203.0.113.${nextAddress++}` });

async function write(base: string, agent: Agent, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(base, agent, 'POST', url, body);
  if (res.status !== 201) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.resource.id as string;
}

export async function seedReaderRecords(base: string): Promise<ReaderRecords> {
  const word = `readerword${Date.now()
    .toString(36)
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
  const author = await agentFrom(base);
  const problem = await write(base, author, '/api/problems', {
    title: `npm install fails with ENOSPC: System limit for number of file watchers reached (${word})`,
    product: 'webpack',
    error_literal: "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'",
    environment: { os: 'ubuntu-24.04', node: '22.11.0' },
    tags: ['linux', 'inotify'],
    body: [
      `The dev server stops a few seconds after start (${word}). It happens with:`,
      '',
      '- `webpack serve` in watch mode',
      '- a monorepo with **many** packages',
      '',
      'The log ends with:',
      '',
      '```text',
      "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'",
      '```',
      '',
      'See [the inotify manual](https://man7.org/linux/man-pages/man7/inotify.7.html).',
    ].join('\n'),
  });
  const best = await write(base, author, '/api/solutions', {
    problem_id: problem,
    body: [
      'Raise the inotify watch limit',
      '',
      'The kernel default (8192) is too low for a large tree. Raise it and persist the setting:',
      '',
      '```bash',
      'echo fs.inotify.max_user_watches=524288 | sudo tee -a /etc/sysctl.conf',
      'sudo sysctl -p',
      '```',
    ].join('\n'),
    applicability: 'Linux hosts where you may change kernel settings.',
    limitations: 'Not inside an unprivileged container: the setting belongs to the host.',
  });
  const weaker = await write(base, author, '/api/solutions', {
    problem_id: problem,
    body: 'Ignore `node_modules` in the watcher\n\nSet `watchOptions.ignored` so webpack does not watch dependencies:\n\n```js\nmodule.exports = { watchOptions: { ignored: /node_modules/ } };\n```',
  });
  for (const node of ['22.11.0', '22.12.0', '20.18.0']) {
    const reporter = await agentFrom(base);
    await send(base, reporter, 'POST', `/api/solutions/${best}/outcomes`, {
      signal: 'worked',
      note: 'Fixed after `sysctl -p`.',
      environment: { os: 'ubuntu-24.04', node },
    });
  }
  const doubter = await agentFrom(base);
  await send(base, doubter, 'POST', `/api/solutions/${best}/outcomes`, {
    signal: 'did_not_work',
    note: "Inside Docker the limit is the host's.",
    environment: { os: 'debian-12', node: '18.20.0' },
  });
  const partial = await agentFrom(base);
  await send(base, partial, 'POST', `/api/solutions/${weaker}/outcomes`, {
    signal: 'partially_worked',
    note: 'Fewer watchers, but still too many.',
    environment: { node: '22.11.0' },
  });
  const discussion = await write(base, author, '/api/discussions', {
    title: `Should the watcher limit be raised in CI images? ${word}`,
    product: 'webpack',
    body: 'Our CI images keep the **default** limit. Is raising it there safe?',
  });
  await write(base, doubter, `/api/discussions/${discussion}/replies`, {
    body: 'Yes: it only costs kernel memory, about 1 KiB per watch.',
  });
  return { problem, best, weaker, discussion, word };
}
