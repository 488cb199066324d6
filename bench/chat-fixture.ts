// Sets up what the load scenarios need through the public API: a user with a session, a chat, its messages.
export interface ChatFixture {
  userId: string;
  login: string;
  password: string;
  token: string;
  chatId: string;
  messageIds: string[];
  /** Authorization for every authenticated request of the benchmark. */
  headers: Record<string, string>;
}

async function callJson(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Registers `login`, logs in, creates a chat and posts `messages` messages into it, `parallel` at a time. */
export async function createChatFixture(url: string, options: { login?: string; messages?: number; parallel?: number } = {}): Promise<ChatFixture> {
  const login = options.login ?? 'bencher';
  const password = 'a long benchmark password';
  const user = await callJson(`${url}/users`, 'POST', { login, password });
  const { token } = await callJson(`${url}/session`, 'POST', { login, password });
  const chat = await callJson(`${url}/chats`, 'POST', { data: { title: 'benchmark chat about the quick brown fox' } }, token);
  const chatId: string = chat.data.id;
  const messageIds: string[] = [];
  const total = options.messages ?? 0;
  const parallel = options.parallel ?? 20;
  for (let start = 0; start < total; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, total - start) }, (_, i) =>
      callJson(`${url}/chats/${chatId}/messages`, 'POST', { data: { text: `message ${start + i}: the quick brown fox jumps over the lazy dog` } }, token));
    for (const posted of await Promise.all(batch)) messageIds.push(posted.data.id);
  }
  return { userId: user.id, login, password, token, chatId, messageIds, headers: { authorization: `Bearer ${token}` } };
}

/** The single-request scenarios of the profiling tools (bench/profile.ts, bench/memory-probe.ts), against `url`. */
export function fixtureRequests(url: string, fixture: ChatFixture) {
  const chat = `${url}/chats/${fixture.chatId}`;
  return {
    health: { url: `${url}/health` },
    chat: { url: chat, headers: fixture.headers },
    page: { url: `${chat}/messages?limit=50`, headers: fixture.headers },
    search: { url: `${url}/search?q=fox`, headers: fixture.headers },
    post: { url: `${chat}/messages`, method: 'POST' as const, headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }) },
  };
}
