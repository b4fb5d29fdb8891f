/**
 * The container HEALTHCHECK (deploy/Dockerfile): exits 0 when HEALTHCHECK_URL (by
 * default the API index on PORT) answers 2xx within 3 s, else 1. The worker's
 * containers point it at the worker's /metrics.
 */
import { loadConfig } from '../core/config.ts';

const config = loadConfig();
const url = config.HEALTHCHECK_URL ?? `http://127.0.0.1:${config.PORT}/api/v1`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
