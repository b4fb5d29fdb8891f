/** A worker's Prometheus endpoint: a bare HTTP server with one path. */
import { createServer, type Server } from 'node:http';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import type { WorkerMetrics } from '../infra/metrics.ts';

export async function serveWorkerMetrics(metrics: WorkerMetrics, config: Config, logger: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    void metrics.registry.metrics().then((text) => {
      res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(config.WORKER_METRICS_PORT, config.HOST, resolve));
  logger.info({ port: config.WORKER_METRICS_PORT }, 'worker metrics listening');
  return server;
}
