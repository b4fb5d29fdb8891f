/**
 * The Content-Security-Policy of every HTML page: no inline script, nothing
 * from other origins. Sent as a header by the service and repeated in a
 * <meta> tag so a copy served from a CDN or nginx keeps it.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'";

/** Headers that only the HTTP response can carry. */
export const FRAME_POLICY = "frame-ancestors 'none'";
