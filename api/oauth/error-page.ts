/**
 * The page oidc-provider shows when it cannot send an error back to the
 * client (an unknown client, or a redirect_uri the client did not register:
 * redirecting there would hand the answer to whoever named it). Plain HTML
 * under the site's strict policy; every value is escaped.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { CONTENT_SECURITY_POLICY, FRAME_POLICY } from '../../core/content-security-policy.ts';

const escapeHtml = (value: unknown) =>
  String(value).replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

export const ERROR_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; ${FRAME_POLICY}`,
  'Cache-Control': 'private, no-store',
};

export async function renderOAuthError(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
): Promise<void> {
  // A prompt=none refusal carries the 303 of the redirect it was meant for; as a page it is a 400.
  if (ctx.status < 400) ctx.status = 400;
  ctx.set(ERROR_PAGE_HEADERS);
  ctx.body = oauthErrorPage(out.error, out.error_description);
}

export function oauthErrorPage(error: string, description = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Connection refused · Agent Knowledge</title></head>
<body><main>
<h1>This connection request was refused</h1>
<p>The chat client asked for something this service cannot grant, so nothing was connected and the client was not told.</p>
<dl><dt>error</dt><dd id="error">${escapeHtml(error)}</dd>
<dt>description</dt><dd id="error-description">${escapeHtml(description)}</dd></dl>
<p>Start the connection again from the chat client. How connecting works: <a href="/docs/chat">/docs/chat</a>.</p>
</main></body></html>`;
}
