// What a push says (docs/protocol.md §17.4): who wrote, in which chat, a short text (none with --push-no-content)
// and the page to open, read when the push is sent, so an edit shows its new text and a deleted message is not sent.
import type { AppServices } from '../context.ts';
import { buildPath } from '../../router/compile-pattern.ts';
import { PATHS } from '../../paths.ts';
import type { QueuedPush } from './queue-pushes.ts';

/** The longest text a push carries, in characters (code points); a longer one is cut and ends with "…". */
export const PUSH_TEXT_MAX = 100;

/** The decrypted payload the service worker reads (public/sw.js). */
export interface PushNotice {
  type: 'message' | 'test';
  /** The author's login; null for a test. */
  who: string | null;
  /** The chat's id; null for a test (also the notification's tag: a newer one of the chat replaces the older). */
  chat: string | null;
  /** What the notification's title says. */
  title: string;
  /** Up to 100 characters of the message; absent with --push-no-content. */
  text?: string;
  /** The absolute URL the click opens. */
  url: string;
}

export function shortenText(text: string): string {
  const characters = [...text.replace(/\s+/g, ' ').trim()];
  return characters.length <= PUSH_TEXT_MAX ? characters.join('') : `${characters.slice(0, PUSH_TEXT_MAX - 1).join('')}…`;
}

type Services = Pick<AppServices, 'storage' | 'config' | 'publicOrigin'>;

function absoluteUrl(services: Services, pattern: string, params: Record<string, string> = {}): string {
  return `${services.publicOrigin()}${services.config.basePath}${buildPath(pattern, params)}`;
}

/** How long a message's notice is reused for its other subscriptions: a fan-out to 1,000 reads it once, not 1,000 times. */
const REUSE_MS = 1000;
const reused = new Map<string, { at: number; notice: Promise<PushNotice | undefined> }>();

/**
 * The notice for a queued push, or undefined when its message or chat is gone. Read again when the push is sent;
 * the pushes of one message sent within a second share one read (so a deletion may miss those already under way).
 */
export function describePush(services: Services, queued: QueuedPush, now: number): Promise<PushNotice | undefined> {
  if (queued.type === 'test') return readNotice(services, queued);
  const key = `${services.publicOrigin()} ${queued.messageId}`;
  const kept = reused.get(key);
  if (kept && now - kept.at < REUSE_MS) return kept.notice;
  for (const [old, entry] of reused) if (now - entry.at >= REUSE_MS) reused.delete(old);
  const notice = readNotice(services, queued);
  reused.set(key, { at: now, notice });
  return notice;
}

async function readNotice(services: Services, queued: QueuedPush): Promise<PushNotice | undefined> {
  if (queued.type === 'test') {
    return { type: 'test', who: null, chat: null, title: 'Test notification', text: 'Notifications from this chat server reach you.', url: absoluteUrl(services, PATHS.chats) };
  }
  const { storage, config } = services;
  const [message, chat] = await Promise.all([storage.messages.findMessage(queued.messageId), storage.chats.findChat(queued.chatId)]);
  if (!message || !chat || message.chatId !== chat.id) return undefined;
  const author = await storage.users.findUserById(message.authorId);
  const who = author?.login ?? 'deleted user';
  const title = chat.kind === 'direct' ? who : `${who} in ${chat.title}`;
  const notice: PushNotice = { type: 'message', who, chat: chat.id, title, url: absoluteUrl(services, PATHS.messages, { chatId: chat.id }) };
  if (!config.pushNoContent) notice.text = shortenText(message.text);
  return notice;
}
