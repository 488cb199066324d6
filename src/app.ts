// The server as node:http sees it: the services, and each request handed to the pipeline (src/pipeline/).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { AppServices, Route } from './resources/context.ts';
import type { RouteTable } from './router/route-table.ts';
import { handleRequest, type Site } from './pipeline/handle-request.ts';
import { createServices, type EventTimings, type StorageOptions } from './services.ts';

export type { EventTimings, StorageOptions } from './services.ts';

export interface App {
  services: AppServices;
  routes: RouteTable<Route>;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** From now on, every answer closes its connection (RFC 9112 §9.6), so kept-alive clients let go; event streams end. */
  stopAccepting(): void;
  /** Tells the app where it listens: the default public origin (--public-url unset). */
  setListenUrl(url: string): void;
  /** Stops the hub and the metrics, finishes queued writes and closes the store. */
  close(): Promise<void>;
}

export async function createApp(config: Config, clock?: Clock, storageOptions?: StorageOptions, eventTimings?: EventTimings): Promise<App> {
  const services = await createServices(config, clock, storageOptions, eventTimings);
  const logFormat = config.quiet ? undefined : config.logFormat;
  // Requests are recorded only when a metrics port is set; nothing watches an exchange that nothing records.
  const recorded = config.metricsPort === null ? undefined : services.metrics;
  const observed = recorded !== undefined || logFormat !== undefined || config.trace;
  const site: Site = {
    services,
    routes: services.routes,
    draining: false,
    watching: observed ? { now: () => services.clock.now(), metrics: recorded, logFormat, trace: config.trace } : undefined,
  };
  return {
    services,
    routes: services.routes,
    handle: (req, res) => handleRequest(site, req, res),
    stopAccepting: () => {
      site.draining = true;
      services.events.stop();
    },
    setListenUrl: services.setListenUrl,
    close: services.close,
  };
}
