// GET /users/{id}/export: everything the server holds about one user, as one document (docs/protocol.md §3.6).
import { publicAccessToken, publicWebhook } from '../../representations/integration-schemas.ts';
import { publicPushSubscription } from '../../representations/push-schemas.ts';
import type { Reply, RequestContext } from '../context.ts';
import {
  isoTime, publicAvatar, publicInvite, publicMessage, publicReadMarker, publicRevision, publicUser, publicUserSession,
} from '../../representations/public-fields.ts';
import type { Resource } from '../../representations/representation.ts';
import type { MessageRow, RevisionOfMessageRow, Tx, UserRow } from '../../storage/store.ts';
import { findOwnAccount } from './access.ts';
import { singleReply } from '../single-reply.ts';
import { PATHS } from '../../paths.ts';

/** Every text the message had: the stored earlier ones, then the current one (numbered as GET .../revisions numbers them). */
function collectRevisions(message: MessageRow, earlier: readonly RevisionOfMessageRow[]): Resource[] {
  const current = { id: earlier.length + 1, text: message.text, createdAt: message.editedAt ?? message.createdAt };
  return [...earlier, current].map(publicRevision);
}

function groupByMessage(rows: readonly RevisionOfMessageRow[]): Map<string, RevisionOfMessageRow[]> {
  const groups = new Map<string, RevisionOfMessageRow[]>();
  for (const row of rows) {
    const group = groups.get(row.messageId);
    if (group) group.push(row);
    else groups.set(row.messageId, [row]);
  }
  return groups;
}

/** The document, read in one snapshot so its parts agree with each other; the same twice while nothing changed (one ETag). */
async function buildExport(ctx: RequestContext, tx: Tx, user: UserRow): Promise<Resource> {
  const { accounts } = tx;
  const memberships = await accounts.findMembershipsOfUser(user.id);
  const revisions = groupByMessage(await accounts.findRevisionsOfAuthor(user.id));
  return {
    user: publicUser(user),
    avatars: (await accounts.findAvatarsOfUser(user.id))
      .map((avatar) => publicAvatar(avatar, ctx.href(PATHS.avatarImage, { userId: user.id, avatarId: avatar.id }))),
    memberships: memberships.map((membership) => ({
      chatId: membership.chatId,
      title: membership.title,
      ownerId: membership.ownerId,
      owner: membership.ownerId === user.id,
      addedAt: isoTime(membership.addedAt),
      chat: ctx.href(PATHS.chat, { chatId: membership.chatId }),
    })),
    readMarkers: memberships.map((membership) => publicReadMarker({ ...membership, userId: user.id })),
    messages: (await accounts.findMessagesOfAuthor(user.id))
      .map((message) => ({ ...publicMessage(message, ctx.services.config.basePath), revisions: collectRevisions(message, revisions.get(message.id) ?? []) })),
    reactions: (await accounts.findReactionsOfUser(user.id))
      .map((reaction) => ({ messageId: reaction.messageId, chatId: reaction.chatId, emoji: reaction.emoji, createdAt: isoTime(reaction.createdAt) })),
    sessions: (await accounts.findSessionsOfUser(user.id)).map((session) => publicUserSession(session, ctx.caller!.sessionId)),
    // As GET /invites answers them: never their code, which is shown once, when made.
    invites: (await accounts.findInvitesOfUser(user.id)).map((invite) => publicInvite(invite)),
    pushSubscriptions: (await tx.push.listPushSubscriptionsOfUser(user.id)).map(publicPushSubscription),
    ...await collectIntegrations(tx, user),
  };
}

/** The user's tokens, their bots with each one's tokens, and the webhooks of their chats (docs/protocol.md §16): never a secret. */
async function collectIntegrations(tx: Tx, user: UserRow): Promise<Resource> {
  const { integrations } = tx;
  const bots: Resource[] = [];
  for (const botId of await integrations.findBotIdsOfOwner(user.id)) {
    const bot = await tx.users.findUserById(botId);
    if (bot) bots.push({ ...publicUser(bot), tokens: (await integrations.findAccessTokensOfUser(bot.id)).map((token) => publicAccessToken(token)) });
  }
  return {
    accessTokens: (await integrations.findAccessTokensOfUser(user.id)).map((token) => publicAccessToken(token)),
    bots,
    webhooks: (await integrations.findWebhooksOfChatsOwnedBy(user.id)).map((hook) => publicWebhook(hook)),
  };
}

/**
 * JSON downloads as `<login>-export.json` (Content-Disposition: attachment, RFC 6266); XML and HTML show the same
 * document as every other representation. Never kept by a cache: it is all personal data.
 */
export async function exportAccount(ctx: RequestContext): Promise<Reply> {
  const { user } = await findOwnAccount(ctx, 'export their data');
  const document = await ctx.services.storage.snapshot((tx) => buildExport(ctx, tx, user));
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  // Logins are letters, digits, '.', '_' and '-' (docs/protocol.md §1.7): safe inside the quoted filename.
  if (ctx.mediaType === 'application/json') headers['Content-Disposition'] = `attachment; filename="${user.login}-export.json"`;
  return singleReply('export', document, [
    { rel: 'user', href: ctx.href(PATHS.user, { userId: user.id }) },
    { rel: 'sessions', href: ctx.href(PATHS.userSessions, { userId: user.id }) },
  ], { enveloped: false, headers });
}
