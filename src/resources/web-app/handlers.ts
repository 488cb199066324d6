// GET /favicon.ico, /icon.svg, /icon-192.png, /icon-512.png and /manifest.webmanifest (docs/html.md, Icon and
// manifest): the same bytes for everyone, made once per process at the first request (a 512 px icon takes a
// fraction of a second to draw), tagged by their hash, cached a day.
import type { Reply, RequestContext } from '../context.ts';
import { etagOfBytes } from '../../http/conditional.ts';
import { APP_ICON_SVG, renderAppIconPng, renderFaviconIco } from '../../representations/app-icon.ts';
import { renderWebManifest } from '../../representations/web-manifest.ts';

/** Like an avatar's image: nothing in these files may load or run anything. */
const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";
/** The sizes in favicon.ico: a tab's 16 px, and 32 and 48 for high-density screens and shortcuts. */
const FAVICON_SIZES = [16, 32, 48];

interface MadeFile {
  data: Buffer;
  etag: string;
}

const made = new Map<string, MadeFile>();

/** The file under `key`, made by `make` the first time it is asked for. */
function fileReply(key: string, contentType: string, make: () => Buffer): Reply {
  let file = made.get(key);
  if (file === undefined) {
    const data = make();
    file = { data, etag: etagOfBytes(data) };
    made.set(key, file);
  }
  return {
    status: 200,
    headers: { ETag: file.etag, 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': FILE_CONTENT_SECURITY_POLICY },
    bytes: { data: file.data, contentType },
  };
}

export function getFavicon(): Reply {
  return fileReply('favicon', 'image/x-icon', () => renderFaviconIco(FAVICON_SIZES));
}

export function getIconSvg(): Reply {
  return fileReply('svg', 'image/svg+xml', () => Buffer.from(APP_ICON_SVG));
}

export function getIcon192(): Reply {
  return fileReply('192', 'image/png', () => renderAppIconPng(192));
}

export function getIcon512(): Reply {
  return fileReply('512', 'image/png', () => renderAppIconPng(512));
}

/** The manifest names paths under the mount point, so each base path has its own (one per process in practice). */
export function getManifest(ctx: RequestContext): Reply {
  const basePath = ctx.services.config.basePath;
  return fileReply(`manifest ${basePath}`, 'application/manifest+json', () => Buffer.from(renderWebManifest(basePath)));
}
