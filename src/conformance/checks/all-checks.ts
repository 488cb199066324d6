// The catalogue: every check of the kit, in the order of docs/protocol.md's sections within each level.
import type { Check } from '../types.ts';
import { ACCOUNT_CHECKS } from './account-checks.ts';
import { AUTH_CHECKS } from './auth-checks.ts';
import { CHATS_CHECKS } from './chats-checks.ts';
import { CONDITIONAL_CHECKS } from './conditional-checks.ts';
import { DELIVERY_CHECKS } from './delivery-checks.ts';
import { EVENTS_CHECKS } from './events-checks.ts';
import { FEATURES_CHECKS } from './features-checks.ts';
import { HARDENING_CHECKS } from './hardening-checks.ts';
import { HTTP_CHECKS } from './http-checks.ts';
import { MESSAGES_CHECKS } from './messages-checks.ts';
import { QUERY_CHECKS } from './query-checks.ts';
import { TEAM_CHAT_CHECKS } from './team-chat-checks.ts';
import { TEAM_CHECKS } from './team-checks.ts';
import { USERS_CHECKS } from './users-checks.ts';

export const ALL_CHECKS: readonly Check[] = [
  ...USERS_CHECKS, ...AUTH_CHECKS, ...CHATS_CHECKS, ...MESSAGES_CHECKS, ...QUERY_CHECKS, ...HTTP_CHECKS, ...CONDITIONAL_CHECKS,
  ...EVENTS_CHECKS, ...DELIVERY_CHECKS, ...FEATURES_CHECKS, ...TEAM_CHECKS, ...ACCOUNT_CHECKS, ...TEAM_CHAT_CHECKS, ...HARDENING_CHECKS,
];

const seen = new Set<string>();
for (const { id } of ALL_CHECKS) {
  if (seen.has(id)) throw new Error(`two checks have the id ${id}`);
  seen.add(id);
}
