// POST /bots (docs/protocol.md §16.2): an administrator, or any member while --members-create-bots holds, makes a
// bot; its owner then makes its tokens (POST /users/{id}/tokens).
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { rejectUnknownFields, requireString, unwrapEnvelope } from '../../parsers/body-fields.ts';
import { publicUser } from '../../representations/public-fields.ts';
import { isUniqueViolation } from '../../storage/store.ts';
import { recordAudit } from '../audit/record.ts';
import { singleReply } from '../single-reply.ts';
import { isAdmin } from '../users/roles.ts';
import { LOGIN_RULE } from '../users/validate.ts';
import { insertBotUser } from './bot-user.ts';
import { PATHS } from '../../paths.ts';

function loginTaken(login: string): HttpError {
  return new HttpError('ERR_LOGIN_TAKEN', `The login "${login}" is already taken`, { errors: [{ field: 'data.login', message: 'is already taken' }] });
}

export async function createBot(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  if (!config.membersCreateBots && !(await isAdmin(ctx))) throw new HttpError('ERR_FORBIDDEN', 'Only administrators may create bots on this server');
  const data = unwrapEnvelope(await readJsonBody(ctx, config.maxBodyBytes, ['application/json']));
  rejectUnknownFields(data, ['login'], 'data.');
  const login = requireString(data, 'login', LOGIN_RULE, 'data.');
  if (await storage.users.findUserByLogin(login)) throw loginTaken(login);
  let bot;
  try {
    bot = await storage.transaction(async (tx) => {
      const row = await insertBotUser(tx, login, ctx.caller!.userId, clock.now());
      await recordAudit(tx, ctx, { action: 'bot.create', targetType: 'user', targetId: row.id, detail: { login } });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw loginTaken(login);
    throw error;
  }
  return singleReply('user', publicUser(bot), [{ rel: 'tokens', href: ctx.href(PATHS.tokens, { userId: bot.id }) }], {
    status: 201, enveloped: false, headers: { Location: ctx.href(PATHS.user, { userId: bot.id }) },
  });
}
