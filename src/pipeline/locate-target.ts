// Stage 2, the base path: the request target split into the path under --base-path and the raw query.
import { HttpError } from '../http/http-error.ts';

export interface Target {
  /** The path as sent, base path included (what a 404 names). */
  fullPath: string;
  /** The path under the base path: what the route table matches ('/' for the base path itself). */
  path: string;
  /** The query without '?', undecoded. */
  rawQuery: string;
}

/** 404 for a path outside the base path: this server answers nothing there (docs/reference.md, --base-path). */
export function locateTarget(url: string, basePath: string): Target {
  const queryAt = url.indexOf('?');
  const fullPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);
  if (basePath && fullPath !== basePath && !fullPath.startsWith(`${basePath}/`)) {
    throw new HttpError('ERR_NOT_FOUND', `No resource at ${fullPath}`);
  }
  return { fullPath, path: fullPath.slice(basePath.length) || '/', rawQuery };
}
