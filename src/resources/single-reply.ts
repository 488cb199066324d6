// Answers one resource: its representation and its links (RFC 8288), as collection.ts answers a page of many.
import type { Reply } from './context.ts';
import type { Link, Resource } from '../representations/representation.ts';

export interface SingleReplyOptions {
  /** 200 unless said otherwise (201 for a resource just created, with its Location in `headers`). */
  status?: number;
  headers?: Record<string, string>;
  /** {"data": {...}} for chats, messages, members, reactions, revisions, read markers; users, avatars and sessions travel bare. */
  enveloped?: boolean;
}

export function singleReply(type: string, data: Resource, links: Link[], options: SingleReplyOptions = {}): Reply {
  const { status = 200, headers, enveloped = true } = options;
  const representation = { kind: 'single', type, enveloped, data, links } as const;
  return headers === undefined ? { status, representation } : { status, headers, representation };
}
