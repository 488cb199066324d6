// POST /hooks/{secret} (docs/protocol.md §16.3): the secret address of an incoming webhook. A JSON {"text"} or a form's
// text= posts a message in its chat as its bot user, counted against the bot's write limit like any writer.
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { mediaTypeOf, readBody } from '../../http/read-body.ts';
import { splitQueryString } from '../../parsers/query-string.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import { singleReply } from '../single-reply.ts';
import { hashAccessToken } from '../tokens/access-token.ts';
import { checkHookText, postAsBot } from './post-as-bot.ts';
import { PATHS } from '../../paths.ts';

const FORM = 'application/x-www-form-urlencoded';

/** The text of the body: {"text"} as JSON, or the field text= of a form. */
function readHookText(type: string, bytes: Buffer): string {
  if (type === FORM) {
    const pair = splitQueryString(bytes.toString('latin1')).find((field) => field.name === 'text');
    return checkHookText(pair?.value);
  }
  if (type !== 'application/json') throw new HttpError('ERR_UNSUPPORTED_MEDIA_TYPE', `Send application/json ({"text"}) or ${FORM} (text=)`);
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError('ERR_BAD_JSON', 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError('ERR_BAD_JSON', 'The body must be a JSON object {"text"}');
  return checkHookText((body as Record<string, unknown>)['text']);
}

export async function receiveHook(ctx: RequestContext): Promise<Reply> {
  const { storage, config, writeLimit } = ctx.services;
  const hook = await storage.integrations.findWebhookBySecretHash(hashAccessToken(ctx.params['secret']!));
  // Unknown, deleted and outgoing alike: a guessed secret learns nothing.
  if (!hook || hook.direction !== 'incoming') throw new HttpError('ERR_NOT_FOUND', 'No webhook at this address');
  if (writeLimit.enabled) await writeLimit.take(hook.botId);
  const type = mediaTypeOf(ctx.req.headers['content-type']);
  const text = readHookText(type, await readBody(ctx.req, config.maxBodyBytes));
  const message = await postAsBot(ctx.services, hook.chatId, hook.botId, text);
  return singleReply('message', publicMessage(message, ctx.services.config.basePath), [], {
    status: 201, headers: { Location: ctx.href(PATHS.message, { chatId: message.chatId, messageId: message.id }) },
  });
}
