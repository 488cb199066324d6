// The second listener: GET /metrics in the Prometheus text format, apart from the API port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_PATH } from '../paths.ts';
import { EXPOSITION_CONTENT_TYPE } from './registry.ts';

/** What the listener serves: one process's metrics, or (--workers) the merge of every worker's. */
export interface MetricsSource {
  render(): string | Promise<string>;
  start?(): void;
  stop?(): void;
}

export interface MetricsListener {
  /** http://host:port/metrics */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves metrics.render() at /metrics on its own port, so the API port never exposes them and a firewall can
 * keep them internal. Anything else answers 404 or 405 in plain text; this listener has no other routes.
 */
export async function listenForMetrics(metrics: MetricsSource, port: number, host: string): Promise<MetricsListener> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const plain = (status: number, text: string, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...extra });
      res.end(text);
    };
    if (path !== METRICS_PATH) return plain(404, `Not found: metrics are at ${METRICS_PATH}\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'Only GET and HEAD\n', { Allow: 'GET, HEAD' });
    let body: Buffer;
    try {
      body = Buffer.from(await metrics.render());
    } catch (error) {
      return plain(503, `Metrics are unavailable: ${(error as Error).message}\n`);
    }
    res.writeHead(200, { 'Content-Type': EXPOSITION_CONTENT_TYPE, 'Content-Length': body.length, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  metrics.start?.();
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}${METRICS_PATH}`,
    server,
    close: () => new Promise<void>((resolve) => {
      metrics.stop?.();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
