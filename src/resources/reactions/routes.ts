// Routes of reactions: under the message's chat, and under the message's top-level address (CONTRACT §10).
import type { Route } from '../../http/context.ts';
import { REACTION_PATH, REACTIONS_PATH, TOP_REACTION_PATH, TOP_REACTIONS_PATH } from '../chats/paths.ts';
import { deleteReaction, getReaction, listReactions, putReaction } from './handlers.ts';

export const REACTION_ROUTES: Route[] = [
  { method: 'GET', pattern: REACTIONS_PATH, handler: listReactions, summary: 'List the reactions to a message, one per user and emoji' },
  { method: 'GET', pattern: REACTION_PATH, handler: getReaction, summary: 'Read the caller\'s own reaction with this emoji' },
  { method: 'PUT', pattern: REACTION_PATH, handler: putReaction, summary: 'React to a message with an emoji (201 when new, 204 when already there)' },
  { method: 'DELETE', pattern: REACTION_PATH, handler: deleteReaction, summary: 'Take back the caller\'s reaction with this emoji' },
  { method: 'GET', pattern: TOP_REACTIONS_PATH, handler: listReactions, summary: 'List the reactions to a message (by its id alone)' },
  { method: 'GET', pattern: TOP_REACTION_PATH, handler: getReaction, summary: 'Read the caller\'s own reaction with this emoji (by the message id alone)' },
  { method: 'PUT', pattern: TOP_REACTION_PATH, handler: putReaction, summary: 'React to a message with an emoji (by the message id alone)' },
  { method: 'DELETE', pattern: TOP_REACTION_PATH, handler: deleteReaction, summary: 'Take back the caller\'s reaction (by the message id alone)' },
];
