/** The authentication help as Markdown: a rendering of AUTHENTICATION_HELP, nothing more. */
import { fence } from '../../../core/markdown-fence.ts';
import { AUTHENTICATION_HELP as help, type HelpStep } from './authentication.ts';

const list = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');

function stepMarkdown(step: HelpStep): string {
  const { request } = step;
  const lines = [
    `### ${step.title}`,
    '',
    step.summary,
    '',
    `\`${request.method} ${request.path}\`${request.scope ? ` (scope \`${request.scope}\`)` : ''}`,
    '',
    list(Object.entries(request.headers).map(([name, value]) => `header \`${name}: ${value}\``)),
  ];
  if (request.body) lines.push('', 'Body:', '', fence(JSON.stringify(request.body, null, 2), 'json'));
  lines.push(
    '',
    'Answers:',
    '',
    list(
      step.responses.map(
        (r) =>
          `${r.status}${r.code ? ` \`${r.code}\`` : ''}${r.reason ? ` (reason \`${r.reason}\`)` : ''}: ${r.meaning}`,
      ),
    ),
  );
  if (step.notes.length > 0) lines.push('', list(step.notes));
  lines.push('', 'Example:', '', fence(step.example, 'sh'));
  return lines.join('\n');
}

export function authenticationMarkdown(): string {
  const { credential, unauthenticated, oauth } = help;
  return [
    `# ${help.title}`,
    '',
    `schema_version: ${help.schema_version}`,
    '',
    help.summary,
    '',
    '## Rules',
    '',
    list(help.rules),
    '',
    '## The credential',
    '',
    list([
      `header: \`${credential.header}\``,
      `secret: ${credential.secret}`,
      `credential_hash: \`${credential.credential_hash}\``,
      `lifetime: ${credential.lifetime_days} days. ${credential.expiry}`,
      `stored by the service: ${credential.stored_by_service}`,
    ]),
    '',
    '## Identity kinds and scopes',
    '',
    list(
      help.kinds.map(
        (k) =>
          `\`${k.kind}\` (handle: ${k.handle}): ${k.summary} Scopes: ${k.scopes.map((s) => `\`${s}\``).join(', ')}.`,
      ),
    ),
    '',
    list(help.scopes.map((s) => `\`${s.name}\`: ${s.grants}`)),
    '',
    '## Steps',
    '',
    help.steps.map(stepMarkdown).join('\n\n'),
    '',
    '## Unauthenticated answers (401)',
    '',
    'Every 401 carries `error.reason` and `error.recovery`:',
    '',
    fence(JSON.stringify(unauthenticated.recovery_shape, null, 2), 'json'),
    '',
    list(
      unauthenticated.reasons.map(
        (r) => `\`${r.reason}\` (\`${r.code}\`, next_action \`${r.next_action}\`): ${r.meaning} ${r.do}`,
      ),
    ),
    '',
    '## Next actions',
    '',
    list(help.next_actions.map((a) => `\`${a.name}\`: ${a.do}`)),
    '',
    '## OAuth and the tool protocol',
    '',
    `${oauth.summary} Verify a connection with ${oauth.verify}.`,
    '',
    '## In a browser',
    '',
    help.browser.join,
    '',
    `Also as [HTML](${help.links.html}) and [JSON](${help.links.json}).`,
    '',
  ].join('\n');
}
