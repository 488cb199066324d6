// What a check works with: requests to the server under test (recorded for the report), the kit's users, chats and
// streams, made on demand and cleaned up where the protocol allows (docs/conformance.md).
import { randomBytes } from 'node:crypto';
import { PATHS } from '../paths.ts';
import { createAccount, signUpBody, type AccountHost, type KitUser } from './accounts.ts';
import { KitStream } from './event-stream.ts';
import { CheckFailure, CheckSkipped } from './expect.ts';
import { sendRequest, type Exchange, type Reply } from './http-client.ts';
import { fillPath } from './fill-path.ts';

export type { KitUser } from './accounts.ts';

export interface CallOptions {
  token?: string;
  /** Sent as JSON with Content-Type: application/json unless `headers` names another type. */
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Leaves out the base path (§1.1: the unprefixed paths answer 404). */
  unprefixed?: boolean;
}

export interface StreamOptions {
  lastEventId?: string;
  query?: string;
  headers?: Record<string, string>;
}

export class KitContext {
  readonly base: URL;
  readonly basePath: string;
  /** Unique to this run: every login and chat id the kit makes starts with it, so runs never collide. */
  readonly runId = `k${randomBytes(5).toString('hex')}`;
  /** The exchanges of the running check; the report shows the last ones of a failure. */
  exchanges: Exchange[] = [];
  private readonly users = new Map<string, Promise<KitUser>>();
  private readonly chats: { id: string; tokens: string[] }[] = [];
  private readonly sessions: string[] = [];
  private streams: KitStream[] = [];
  private counter = 0;
  private readonly accounts: AccountHost;

  private readonly options: { invite?: string; adminToken?: string };

  constructor(baseUrl: string, options: { invite?: string; adminToken?: string }) {
    this.options = options;
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.basePath = this.base.pathname.replace(/\/$/, '');
    this.accounts = {
      runId: this.runId,
      invite: options.invite,
      adminToken: options.adminToken,
      call: (method, path, callOptions) => this.call(method, path, callOptions),
      inviter: () => this.firstToken,
    };
  }

  private firstToken: string | undefined;

  /** A route pattern of paths.ts filled in, without the base path. */
  at(pattern: string, params: Readonly<Record<string, string>> = {}): string {
    return fillPath(pattern, params);
  }

  /** The path as the server writes it in `Location` and links: under the base path. */
  prefixed(path: string): string {
    return `${this.basePath}${path}`;
  }

  url(path: string, unprefixed = false): URL {
    return new URL(`${this.base.origin}${unprefixed ? '' : this.basePath}${path}`);
  }

  call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
    return sendRequest({ method, url: this.url(path, options.unprefixed), headers, ...(body === undefined ? {} : { body }), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
      (exchange) => this.exchanges.push(exchange));
  }

  /** Opens `GET /events` as Server-Sent Events; it is closed when the check ends. */
  async stream(token: string, options: StreamOptions = {}): Promise<KitStream> {
    const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}`, ...options.headers };
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
    const stream = await KitStream.open(this.url(`${PATHS.events}${options.query ?? ''}`), headers, (exchange) => this.exchanges.push(exchange));
    this.streams.push(stream);
    return stream;
  }

  /** Opens a stream and waits for its `ready` (§9.3): from then on nothing is missed. */
  async readyStream(token: string, options: StreamOptions = {}): Promise<KitStream> {
    const stream = await this.stream(token, options);
    if (stream.status !== 200) throw new CheckFailure(`GET ${PATHS.events} as an event stream answered ${stream.status}`);
    await stream.waitFor((event) => event.type === 'ready', 'the ready event');
    return stream;
  }

  /**
   * The kit's user `name`, signed up and logged in on first use. `alice` always comes first, so on an empty database
   * she is the first account (and its admin, §13.1); bob logs in with his login in capitals (§2.2).
   */
  user(name: string): Promise<KitUser> {
    let made = this.users.get(name);
    if (made === undefined) {
      made = (async () => {
        if (name !== 'alice') await this.user('alice');
        // A sign-up is not what the check is about: its exchanges stay out of a failure's report unless it failed itself.
        const checkExchanges = this.exchanges;
        this.exchanges = [];
        let user: KitUser;
        try {
          user = await createAccount(this.accounts, name, name === 'bob' ? (login) => login.toUpperCase() : undefined);
        } catch (error) {
          checkExchanges.push(...this.exchanges);
          throw error;
        } finally {
          this.exchanges = checkExchanges;
        }
        this.firstToken ??= user.token;
        this.sessions.push(user.token);
        return user;
      })();
      this.users.set(name, made);
      made.catch(() => this.users.delete(name));
    }
    return made;
  }

  /** Whether the server turned a sign-up away as closed (§13.2); known once the kit has signed up its users. */
  get registrationClosed(): boolean {
    return this.accounts.closed === true;
  }

  /** Signs up with `body` as the kit signs up its users (an invite or the admin's token when the server asks for one). */
  signUp(body: { login: string; password: string }): Promise<Reply> {
    return signUpBody(this.accounts, body);
  }

  /** A token to clean up with later (a second session a check made). */
  keepSession(token: string): void {
    this.sessions.push(token);
  }

  /** An active admin's token: the one given, or alice's when she became the first account's admin; else the check is skipped. */
  async adminToken(): Promise<string> {
    if (this.options.adminToken !== undefined) return this.options.adminToken;
    const alice = await this.user('alice');
    if (alice.role === 'admin') return alice.token;
    return this.skip('needs an admin: pass --admin-token (alice is not the first account of this server)');
  }

  /** A string unique in this run. */
  unique(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${this.runId}-${this.counter}`;
  }

  /** A new chat owned by `owner` with `members`, deleted when the run ends. */
  async chat(owner: KitUser, members: readonly KitUser[] = [], title = this.unique('Conformance chat')): Promise<any> {
    const reply = await this.call('POST', PATHS.chats, { token: owner.token, json: { data: { title, members: members.map((member) => member.id) } } });
    if (reply.status !== 201) throw new CheckFailure(`cannot create a chat: POST ${PATHS.chats} answered ${reply.status}`);
    this.remember(reply.json.data.id, owner, ...members);
    return reply.json.data;
  }

  /** Keeps a chat for the cleanup, with the tokens that may delete it (its owner may change). */
  remember(chatId: string, ...users: KitUser[]): void {
    this.chats.push({ id: chatId, tokens: users.map((user) => user.token) });
  }

  /** Posts a message as `author`; answers the message. */
  async post(author: KitUser, chatId: string, text: string, replyTo?: string): Promise<any> {
    const reply = await this.call('POST', this.at(PATHS.messages, { chatId }), { token: author.token, json: { data: { text, ...(replyTo ? { replyTo } : {}) } } });
    if (reply.status !== 201) throw new CheckFailure(`cannot post a message: POST ${PATHS.messages} answered ${reply.status}`);
    return reply.json.data;
  }

  skip(why: string): never {
    throw new CheckSkipped(why);
  }

  /** Closes what the last check opened. */
  endCheck(): void {
    for (const stream of this.streams) stream.close();
    this.streams = [];
  }

  /** Deletes the kit's chats and ends its sessions; what the protocol cannot remove (users) stays. */
  async cleanUp(): Promise<void> {
    this.endCheck();
    const admin = this.options.adminToken;
    for (const chat of this.chats) {
      for (const token of admin === undefined ? chat.tokens : [...chat.tokens, admin]) {
        const reply = await this.call('DELETE', this.at(PATHS.chat, { chatId: chat.id }), { token }).catch(() => undefined);
        if (reply?.status === 204) break;
      }
    }
    for (const token of this.sessions) await this.call('DELETE', PATHS.session, { token }).catch(() => undefined);
  }
}
