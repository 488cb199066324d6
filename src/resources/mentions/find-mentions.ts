// Who a message's text mentions (docs/protocol.md §14.2): `@login` of a member as a whole word, in the case stored,
// and `@all` for every member. Pure: text and members in, ids out.

/** A member as the text may name them. */
export interface MentionableMember {
  userId: string;
  login: string;
}

export interface FoundMentions {
  /** Each mentioned member once, in order of first mention; `@all` brings every member at its place. */
  userIds: string[];
  /** Whether the text says `@all` (only the chat's owner and admins may). */
  all: boolean;
}

/** The keyword that mentions every member; it is never read as a login. */
export const MENTION_ALL = 'all';

// An @ that does not follow a login character (so alice@example.org mentions nobody), then a run of login characters.
const MENTION = /(?<![A-Za-z0-9._@-])@([A-Za-z0-9._-]+)/g;

/**
 * The logins a token after `@` may be: itself, then without the punctuation that ends a sentence ("@bob." or
 * "@bob-"), since logins may hold ".", "_" and "-" but a whole word ends before trailing ones.
 */
function candidatesOf(token: string): string[] {
  const trimmed = token.replace(/[._-]+$/, '');
  return trimmed === token || trimmed === '' ? [token] : [token, trimmed];
}

export function findMentions(text: string, members: readonly MentionableMember[]): FoundMentions {
  const byLogin = new Map(members.map((member) => [member.login, member.userId]));
  const found = new Set<string>();
  let all = false;
  for (const match of text.matchAll(MENTION)) {
    for (const candidate of candidatesOf(match[1]!)) {
      if (candidate === MENTION_ALL) {
        all = true;
        for (const member of members) found.add(member.userId);
        break;
      }
      const userId = byLogin.get(candidate);
      if (userId !== undefined) {
        found.add(userId);
        break;
      }
    }
  }
  return { userIds: [...found], all };
}
