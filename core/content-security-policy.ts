/**
 * The Content-Security-Policy of every HTML page: no inline script, nothing
 * from other origins. Sent as a header by the service and repeated in a
 * <meta> tag so a copy served from a CDN or nginx keeps it.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'";

/**
 * The search page alone may compile WebAssembly: Pagefind's search runs as
 * WASM, in its worker, or on the page itself when workers are unavailable.
 * `'wasm-unsafe-eval'` allows compiling WASM modules only; it does not allow
 * `eval` or inline script. Worker scripts come from our origin, which
 * `script-src 'self'` already covers (worker-src falls back to it).
 */
export const SEARCH_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
);

/**
 * Pagefind's worker script (/pagefind/pagefind-worker.js). A dedicated worker
 * takes its policy from its own response, not from the page, so it gets one
 * of its own: compile WASM, fetch index files from us, nothing else.
 */
export const SEARCH_WORKER_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/** Headers that only the HTTP response can carry. */
export const FRAME_POLICY = "frame-ancestors 'none'";
