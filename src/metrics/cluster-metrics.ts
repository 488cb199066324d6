// --workers N: the primary serves /metrics, asking every worker for its snapshot over IPC and merging them.
import cluster, { type Worker } from 'node:cluster';
import { renderMerged, type MetricSnapshot } from './registry.ts';
import type { MetricsSource } from './metrics-server.ts';
import type { ServerMetrics } from './server-metrics.ts';

type MetricsRequest = { type: 'metrics-request'; id: number };
type MetricsAnswer = { type: 'metrics-snapshot'; id: number; snapshot: MetricSnapshot[] };

/** A worker that does not answer in this time (it is dying or stuck) is left out of this scrape. */
const ANSWER_TIMEOUT_MS = 2000;

/** In a worker: answer the primary's requests for this process's metrics. */
export function answerMetricsRequests(metrics: ServerMetrics): void {
  process.on('message', (message: MetricsRequest) => {
    if (message?.type !== 'metrics-request') return;
    process.send?.({ type: 'metrics-snapshot', id: message.id, snapshot: metrics.snapshot() } satisfies MetricsAnswer);
  });
}

function askWorker(worker: Worker, id: number): Promise<MetricSnapshot[] | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), ANSWER_TIMEOUT_MS);
    const onMessage = (message: MetricsAnswer): void => {
      if (message?.type === 'metrics-snapshot' && message.id === id) done(message.snapshot);
    };
    const done = (snapshot: MetricSnapshot[] | undefined): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(snapshot);
    };
    const onExit = (): void => done(undefined);
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.send({ type: 'metrics-request', id } satisfies MetricsRequest);
  });
}

/**
 * In the primary: a source for listenForMetrics whose every scrape is the sum of the live workers' counters
 * and histograms (a worker that died and was replaced starts again from zero, which Prometheus's rate()
 * treats as a counter reset), with gauges summed or taking the largest (event-loop lag).
 */
export function clusterMetricsSource(): MetricsSource {
  let nextId = 0;
  return {
    async render() {
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && worker.isConnected());
      const id = ++nextId;
      const snapshots = (await Promise.all(workers.map((worker) => askWorker(worker, id)))).filter((snapshot) => snapshot !== undefined);
      if (snapshots.length === 0) throw new Error('no worker answered');
      return renderMerged(snapshots);
    },
  };
}
