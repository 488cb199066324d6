// GET /sw.js (docs/html.md): the service worker's script, as JavaScript, never cached without a check (browsers
// look for a new one at most once a day anyway), under a policy that lets it load nothing.
import type { Reply, RequestContext } from '../context.ts';
import { SERVICE_WORKER_ETAG, SERVICE_WORKER_SCRIPT } from '../../representations/service-worker-script.ts';

const BYTES = Buffer.from(SERVICE_WORKER_SCRIPT);

export function getServiceWorker(ctx: RequestContext): Reply {
  return {
    status: 200,
    headers: {
      ETag: SERVICE_WORKER_ETAG,
      'Cache-Control': 'no-cache',
      // Its scope is the mount point (--base-path), which is also the script's folder: allowed without this, said anyway.
      'Service-Worker-Allowed': `${ctx.services.config.basePath}/`,
      'Content-Security-Policy': "default-src 'none'",
    },
    bytes: { data: BYTES, contentType: 'text/javascript; charset=utf-8' },
  };
}
