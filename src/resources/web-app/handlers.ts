// GET /favicon.ico, /icon.svg, /icon-192.png, /icon-512.png and /manifest.webmanifest (docs/html.md, Icon and
// manifest): the same bytes for everyone, made once per process at the first request, tagged by their hash,
// cached a day. The PNGs are drawn a band of rows at a time, other requests served in between (a 512 px icon
// takes a fraction of a second of work).
import type { Reply, RequestContext } from '../context.ts';
import { etagOfBytes } from '../../http/conditional.ts';
import { APP_ICON_SVG, drawAppIconInBands, renderAppIconPng, renderFaviconIco } from '../../representations/app-icon.ts';
import { renderWebManifest } from '../../representations/web-manifest.ts';

/** Like an avatar's image: nothing in these files may load or run anything. */
const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";
/** The sizes in favicon.ico: a tab's 16 px, and 32 and 48 for high-density screens and shortcuts. */
const FAVICON_SIZES = [16, 32, 48];

interface MadeFile {
  data: Buffer;
  etag: string;
}

/** Each file once made, or being made (two first requests at once share the work). */
const made = new Map<string, Promise<MadeFile>>();

function answerOf(file: MadeFile, contentType: string): Reply {
  return {
    status: 200,
    headers: { ETag: file.etag, 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': FILE_CONTENT_SECURITY_POLICY },
    bytes: { data: file.data, contentType },
  };
}

/** The file under `key`, made by `make` the first time it is asked for. */
async function fileReply(key: string, contentType: string, make: () => Buffer | Promise<Buffer>): Promise<Reply> {
  let file = made.get(key);
  if (file === undefined) {
    file = Promise.resolve(make()).then((data) => ({ data, etag: etagOfBytes(data) }));
    made.set(key, file);
    // Never kept failed: the next request tries again.
    file.catch(() => made.delete(key));
  }
  return answerOf(await file, contentType);
}

/** The icon's PNG, drawn band by band with a turn of the event loop between bands. */
async function drawPng(size: number): Promise<Buffer> {
  const bands = drawAppIconInBands(size);
  for (;;) {
    const step = bands.next();
    if (step.done === true) return renderAppIconPng(size, step.value);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function getFavicon(): Promise<Reply> {
  return fileReply('favicon', 'image/x-icon', () => renderFaviconIco(FAVICON_SIZES));
}

export function getIconSvg(): Promise<Reply> {
  return fileReply('svg', 'image/svg+xml', () => Buffer.from(APP_ICON_SVG));
}

export function getIcon192(): Promise<Reply> {
  return fileReply('192', 'image/png', () => drawPng(192));
}

export function getIcon512(): Promise<Reply> {
  return fileReply('512', 'image/png', () => drawPng(512));
}

/** The manifest names paths under the mount point, so each base path has its own (one per process in practice). */
export function getManifest(ctx: RequestContext): Promise<Reply> {
  const basePath = ctx.services.config.basePath;
  return fileReply(`manifest ${basePath}`, 'application/manifest+json', () => Buffer.from(renderWebManifest(basePath)));
}
