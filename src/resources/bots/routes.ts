// Routes of bots (docs/protocol.md §16.2).
import type { Route } from '../context.ts';
import { created } from '../../openapi/route-doc.ts';
import { object, text } from '../../openapi/schema.ts';
import { createBot } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const NEW_BOT = object({ data: object({ login: text({ min: 3, max: 32 }, { description: 'The bot\'s login, unique like any user\'s' }) }) });

export const BOT_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.bots, handler: createBot, summary: 'Create a bot you own (an administrator, or anyone with --members-create-bots)',
    requestBody: { contentTypes: ['application/json'], schema: NEW_BOT, example: { data: { login: 'ci-bot' } } },
    responses: { 201: created('User', 'Created: the bot, a user of kind bot') }, problems: [403, 409],
  },
];
