/** Responses of the site's own routes (the help page in JSON and Markdown). */
export function markdownResponse(text: string, status = 200): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
}

export function jsonResponse(value: unknown, status = 200): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
