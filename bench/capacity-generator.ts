// Bench only: one load-generator process of the capacity bench (bench/capacity.md). The coordinator
// (capacity.bench.ts) hands it a share of the roster, then asks it to connect users, run a step and check delivery;
// it answers with raw latencies, its own CPU time and event-loop delay, so the coordinator sees whether it was the limit.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ACTION_NAMES, Api, failureReasons, noteFailure, pickAction, RUN, type ActionName, type UserState } from './capacity-actions.ts';
import type { Roster, RosterUser } from './capacity-seed.ts';
import { now, UserStream } from './capacity-stream.ts';

export interface Post { chatId: string; id: string }

export type GeneratorRequest =
  | { type: 'init'; url: string; users: RosterUser[]; chats: Roster['chats'] }
  | { type: 'connect'; count: number }
  | { type: 'run'; seconds: number }
  | { type: 'check'; posts: Post[]; deleted: string[] }
  | { type: 'stop' };

export interface StepFigures {
  latencies: Record<string, number[]>;
  failures: Record<string, number>;
  /** The failures by status and error code (or socket error). */
  reasons: Record<string, number>;
  delivery: number[];
  /** Messages that came in a replay (after a reconnect) rather than live: counted as delivered, not timed. */
  replayed: number;
  posts: Post[];
  deleted: string[];
  dropped: number;
  cpuMs: number;
  loopP99Ms: number;
  loopMaxMs: number;
}

export type GeneratorAnswer =
  | { type: 'connected'; users: number; failed: number; seconds: number }
  | { type: 'ran'; figures: StepFigures }
  | { type: 'checked'; expected: number; lost: number; duplicated: number };

const send = (answer: GeneratorAnswer): void => { process.send!(answer); };

let api: Api;
let url: URL;
let share: RosterUser[] = [];
let chats: Roster['chats'] = {};
const users: UserState[] = [];
/** Per user: message ids received (any way) this step. */
const received = new Map<string, Set<string>>();
let figures: StepFigures;
let running = false;
const loop = monitorEventLoopDelay({ resolution: 1 });

function freshFigures(): StepFigures {
  return { latencies: Object.fromEntries(ACTION_NAMES.map((name) => [name, []])), failures: {}, reasons: failureReasons, delivery: [], replayed: 0, posts: [], deleted: [], dropped: 0, cpuMs: 0, loopP99Ms: 0, loopMaxMs: 0 };
}

function makeUser(roster: RosterUser): UserState {
  const mine = new Set<string>();
  received.set(roster.id, mine);
  const user: UserState = {
    id: roster.id, token: roster.token, teamIds: chats[roster.chatIds[0]!] ?? [], groupChats: roster.chatIds, current: roster.chatIds[0]!,
    oldestSeen: undefined, recent: [], own: [], stream: undefined as unknown as UserStream,
  };
  user.stream = new UserStream({ url, token: roster.token }, (message, arrivedAt, live) => {
    mine.add(message.id);
    const sentAt = Number(/^bench post @([\d.]+)$/.exec(message.text)?.[1]);
    if (!Number.isFinite(sentAt)) return;
    if (live) figures.delivery.push(arrivedAt - sentAt);
    else figures.replayed++;
  }, () => {
    // Dropped by the server: reconnect at once with Last-Event-ID, as EventSource would (after its retry).
    figures.dropped++;
    void reopen(user);
  });
  return user;
}

async function reopen(user: UserState): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await user.stream.open();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function connect(count: number): Promise<void> {
  const started = now();
  const batch = share.slice(users.length, users.length + count).map(makeUser);
  let failed = 0;
  // A few hundred at a time: a reconnect storm is not what this step measures.
  for (let i = 0; i < batch.length; i += 200) {
    await Promise.all(batch.slice(i, i + 200).map(async (user) => {
      try {
        await user.stream.open();
      } catch {
        failed++;
      }
    }));
  }
  users.push(...batch);
  send({ type: 'connected', users: users.length, failed, seconds: (now() - started) / 1000 });
}

async function actLoop(user: UserState, until: number): Promise<void> {
  // The first action somewhere in the first 20 s, then one every 1-39 s (20 s on average), as Mattermost's agents.
  let next = now() + Math.random() * 20_000;
  const ctx = {
    api, now,
    posted: (chatId: string, id: string) => { figures.posts.push({ chatId, id }); },
    deleted: (id: string) => { figures.deleted.push(id); },
  };
  for (;;) {
    const wait = next - now();
    if (next >= until) return;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!running) return;
    const action: ActionName = pickAction();
    const started = now();
    let good = false;
    try {
      good = await RUN[action](ctx, user);
    } catch (error) {
      noteFailure((error as NodeJS.ErrnoException).code ?? String(error));
      good = false;
    }
    figures.latencies[action]!.push(now() - started);
    if (!good) figures.failures[action] = (figures.failures[action] ?? 0) + 1;
    next = started + 1000 + Math.random() * 38_000;
  }
}

async function run(seconds: number): Promise<void> {
  figures = freshFigures();
  for (const reason of Object.keys(failureReasons)) delete failureReasons[reason];
  for (const set of received.values()) set.clear();
  for (const user of users) {
    user.stream.seen.clear();
    user.stream.duplicates = 0;
  }
  loop.reset();
  loop.enable();
  const cpu = process.cpuUsage();
  running = true;
  const until = now() + seconds * 1000;
  const stopper = setTimeout(() => { running = false; }, seconds * 1000);
  await Promise.all(users.map((user) => actLoop(user, until)));
  clearTimeout(stopper);
  running = false;
  const used = process.cpuUsage(cpu);
  figures.cpuMs = (used.user + used.system) / 1000;
  figures.loopP99Ms = loop.percentile(99) / 1e6;
  figures.loopMaxMs = loop.max / 1e6;
  loop.disable();
  send({ type: 'ran', figures });
}

/** Every post that succeeded must have reached each member of its chat held here, once. */
function check(posts: Post[], deleted: string[]): void {
  const gone = new Set(deleted);
  const byChat = new Map<string, string[]>();
  for (const post of posts) if (!gone.has(post.id)) (byChat.get(post.chatId) ?? byChat.set(post.chatId, []).get(post.chatId)!).push(post.id);
  let expected = 0;
  let lost = 0;
  let duplicated = 0;
  for (const user of users) {
    const got = received.get(user.id)!;
    duplicated += user.stream.duplicates;
    for (const chatId of user.groupChats) {
      for (const id of byChat.get(chatId) ?? []) {
        expected++;
        if (!got.has(id)) lost++;
      }
    }
  }
  send({ type: 'checked', expected, lost, duplicated });
}

process.on('message', (message: GeneratorRequest) => {
  if (message.type === 'init') {
    url = new URL(message.url);
    api = new Api(url);
    share = message.users;
    chats = message.chats;
  } else if (message.type === 'connect') void connect(message.count);
  else if (message.type === 'run') void run(message.seconds);
  else if (message.type === 'check') check(message.posts, message.deleted);
  else if (message.type === 'stop') {
    for (const user of users) user.stream.close();
    api.close();
    process.exit(0);
  }
});
