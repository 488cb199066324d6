// The app's icons and manifest (docs/html.md, Icon and manifest): public files, answered the same to everyone.
import type { Route } from '../context.ts';
import { PATHS } from '../../paths.ts';
import { getFavicon, getIcon192, getIcon512, getIconSvg, getManifest } from './handlers.ts';

const CACHED = ['ETag', 'Cache-Control'] as const;

export const WEB_APP_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.favicon, handler: getFavicon, auth: 'public', raw: true, summary: 'The icon browsers show in a tab (16, 32 and 48 px PNGs in one .ico)',
    responses: { 200: { description: 'The icon', raw: ['image/x-icon'], headers: CACHED } },
  },
  {
    method: 'GET', pattern: PATHS.iconSvg, handler: getIconSvg, auth: 'public', raw: true, summary: 'The icon as SVG (the pages\' icon)',
    responses: { 200: { description: 'The icon', raw: ['image/svg+xml'], headers: CACHED } },
  },
  {
    method: 'GET', pattern: PATHS.icon192, handler: getIcon192, auth: 'public', raw: true, summary: 'The icon as a 192 px PNG (the manifest\'s)',
    responses: { 200: { description: 'The icon', raw: ['image/png'], headers: CACHED } },
  },
  {
    method: 'GET', pattern: PATHS.icon512, handler: getIcon512, auth: 'public', raw: true, summary: 'The icon as a 512 px PNG (the manifest\'s)',
    responses: { 200: { description: 'The icon', raw: ['image/png'], headers: CACHED } },
  },
  {
    method: 'GET', pattern: PATHS.manifest, handler: getManifest, auth: 'public', raw: true, summary: 'The web app manifest: name, icons, colours (the pages install as an app)',
    responses: { 200: { description: 'The manifest', raw: ['application/manifest+json'], headers: CACHED } },
  },
];
