import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

/** A running metrics endpoint. */
export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text) and `GET /healthz` on `port` (0 picks a free one).
 * Binds every interface, since the scraper runs in another pod.
 */
export async function startMetricsServer(metrics: Metrics, port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(metrics.render());
    } else if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok\n');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
