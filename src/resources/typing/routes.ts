// Routes of typing indicators.
import type { Route } from '../context.ts';
import { noContent } from '../../openapi/route-doc.ts';
import { postTyping } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const TYPING_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.typing, handler: postTyping,
    summary: 'Tell the other members you are typing (members; an ephemeral typing event, at most one every 2 s)',
    // Nothing is written, and at most one start in 2 s is forwarded: the per-minute write quota is not taken.
    writeLimited: false,
    // A form post (it takes no form, and needs no body) is refused with 415, as by every route without a form rule.
    problems: [415],
    responses: { 204: noContent('Told, or dropped as too soon after the last one: the answer is the same') },
  },
];
