// The page script's chat screen (docs/html.md, "What the script does"): one part, in one scope, made of three pieces.
import { SCREEN_ACTIONS } from './screen-actions.ts';
import { SCREEN_LIVE } from './screen-live.ts';
import { SCREEN_REGIONS } from './screen-regions.ts';

/** The regions and how to swap them, then the forms and links in place, then the live updates and older pages. */
export const CHAT_SCREEN = `${SCREEN_REGIONS}${SCREEN_ACTIONS}${SCREEN_LIVE}`;
