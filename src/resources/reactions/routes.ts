// Routes of reactions: under the message's chat, and under the message's top-level address (docs/protocol.md §10.4).
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { object, text } from '../../openapi/schema.ts';
import { deleteReaction, getReaction, listReactions, postReaction, putReaction, REACTION_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const EMOJI = { parameters: [{ name: 'emoji', in: 'path' as const, description: 'An emoji or a short name such as +1: 1-32 characters (code points), percent-encoded UTF-8, no whitespace or control characters', schema: text({ min: 1, max: 32 }) }] };

const EMOJI_BODY = object({ emoji: text({ min: 1, max: 32 }, { description: 'An emoji or a short name, as in the path of PUT …/reactions/{emoji}' }) });

function reactionRoutes(list: string, one_: string, suffix: string): Route[] {
  return [
    { method: 'GET', pattern: list, handler: listReactions, summary: `List the reactions to a message, one per user and emoji${suffix}`, responses: { 200: page('Reaction') }, query: { fields: REACTION_FIELDS } },
    {
      method: 'POST', pattern: list, handler: postReaction, summary: `React to a message with the emoji in the body, as PUT …/reactions/{emoji} does (an HTML form's way)${suffix}`,
      requestBody: { contentTypes: ['application/json'], schema: EMOJI_BODY, example: { emoji: '👍' } },
      responses: { 201: created('Reaction', 'Added'), 204: noContent('The caller had reacted so already: nothing changed') },
    },
    { method: 'GET', pattern: one_, handler: getReaction, summary: `Read the caller's own reaction with this emoji${suffix}`, responses: { 200: one('Reaction') }, query: EMOJI },
    {
      method: 'PUT', pattern: one_, handler: putReaction, summary: `React to a message with an emoji${suffix}`,
      responses: { 201: created('Reaction', 'Added'), 204: noContent('The caller had reacted so already: nothing changed') }, query: EMOJI,
    },
    { method: 'DELETE', pattern: one_, handler: deleteReaction, summary: `Take back the caller's reaction with this emoji${suffix}`, responses: { 204: noContent('Taken back') }, query: EMOJI },
  ];
}

export const REACTION_ROUTES: Route[] = [
  ...reactionRoutes(PATHS.reactions, PATHS.reaction, ''),
  ...reactionRoutes(PATHS.topReactions, PATHS.topReaction, ' (by the message id alone)'),
];
