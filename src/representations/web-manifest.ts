// The web app manifest (W3C Web Application Manifest) that makes the pages an installable app (docs/html.md, Icon and
// manifest), and the name people see in titles and on the landing page. Pure.
import { PATHS } from '../paths.ts';
import { BACKGROUND_COLOUR, THEME_COLOUR } from './app-icon.ts';

/** What the pages call this server: each page's title is "<page> · <this>" (the landing page's, this alone). */
export const APP_NAME = 'Chat';

/** The PNG sizes of the manifest's icons (Chromium installs with a 144 px or larger one; 192 and 512 are the usual). */
export const ICON_SIZES = [192, 512] as const;

/** The icon PNG's path of each size. */
export const ICON_PATHS: Record<(typeof ICON_SIZES)[number], string> = { 192: PATHS.icon192, 512: PATHS.icon512 };

/** The manifest under `basePath` (the --base-path mount point): the app opens on the landing page, in its own window. */
export function renderWebManifest(basePath: string): string {
  return `${JSON.stringify({
    id: `${basePath}/`,
    name: APP_NAME,
    short_name: APP_NAME,
    description: 'Group chats and direct messages for a team, live in the browser.',
    start_url: `${basePath}/`,
    scope: `${basePath}/`,
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: [
      ...ICON_SIZES.map((size) => ({ src: `${basePath}${ICON_PATHS[size]}`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' })),
      { src: `${basePath}${PATHS.iconSvg}`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  }, null, 2)}\n`;
}
