// Mentions in a message's text (docs/protocol.md §14.2): `@login` as a whole word, in the case stored, and `@all`.
// Pure: the server reads who a text mentions with it, and the HTML pages find the same words to highlight.

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

/** One `@word` that names someone: where it starts (the @), how long it is (with the @), and whom it names. */
export interface MentionSpan {
  start: number;
  length: number;
  /** The login it names, or MENTION_ALL. */
  login: string;
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

/** Every `@word` of the text that names one of `logins` (or `@all`), in order. */
export function findMentionSpans(text: string, logins: ReadonlySet<string>): MentionSpan[] {
  const spans: MentionSpan[] = [];
  for (const match of text.matchAll(MENTION)) {
    const login = candidatesOf(match[1]!).find((candidate) => candidate === MENTION_ALL || logins.has(candidate));
    if (login !== undefined) spans.push({ start: match.index, length: login.length + 1, login });
  }
  return spans;
}

export function findMentions(text: string, members: readonly MentionableMember[]): FoundMentions {
  const byLogin = new Map(members.map((member) => [member.login, member.userId]));
  const found = new Set<string>();
  let all = false;
  for (const span of findMentionSpans(text, new Set(byLogin.keys()))) {
    if (span.login === MENTION_ALL) {
      all = true;
      for (const member of members) found.add(member.userId);
    } else {
      found.add(byLogin.get(span.login)!);
    }
  }
  return { userIds: [...found], all };
}
