// Pages for people go out gzipped when the browser takes gzip (RFC 9110 §8.4, §12.5.3): a chat screen is mostly
// repeated markup, a fifth of its size compressed (docs/performance.md, "The chat screen in the browser").
import type { IncomingHttpHeaders } from 'node:http';
import { constants, gzipSync } from 'node:zlib';
import { QVALUE } from './negotiate.ts';

/** Below this, gzip's header and the CPU cost more than they save. */
const MIN_BYTES = 1024;

/**
 * Whether Accept-Encoding rates gzip above 0 (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) rated for itself decides, else
 * `*` does, else no. An element with a malformed q (`q=2`, `q=x`) is ignored, as negotiate.ts ignores one in Accept.
 */
export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const accepted = headers['accept-encoding'];
  if (accepted === undefined) return false;
  let named: number | undefined;
  let any: number | undefined;
  for (const item of accepted.split(',')) {
    const [name, ...parameters] = item.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='))?.slice(2) ?? '1';
    if (!QVALUE.test(q)) continue;
    if (name === '*') any = Number(q);
    else named = Number(q);
  }
  return (named ?? any ?? 0) > 0;
}

/** The tag of the gzipped bytes: another representation, so another strong validator (RFC 9110 §8.8.3.3). */
export function gzipEtag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-gzip"` : etag;
}

/** The page's bytes gzipped, or undefined when it is too small to gain. Level 6: the default trade of time for size. */
export function gzipPage(body: string | Buffer): Buffer | undefined {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (length < MIN_BYTES) return undefined;
  return gzipSync(body, { level: 6, strategy: constants.Z_DEFAULT_STRATEGY });
}
