// The storage layer alone, before and after the async Store (issue #18): the calls of one POST message and of one
// page of 50, against the synchronous Storage of an earlier tree, both in this one process, alternating batches,
// CPU time per operation (process.cpuUsage). No HTTP, no fsync (synchronous=OFF, :memory:): what is left is the
// cost of the interface itself, which a busy machine disturbs far less than a load test.
//
//   git archive <commit before #18> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   node --import tsx bench/store-overhead.ts /tmp/before [rounds]
import { join, resolve } from 'node:path';

const OPS = 2000;
const CONCURRENT = 10;
const HASH = Buffer.alloc(32, 1);

function message(i: number) {
  return { id: `m${String(i).padStart(8, '0')}`, chatId: 'c1', authorId: 'u1', text: 'a message posted under load', replyTo: null, createdAt: i, updatedAt: i, mentions: '[]' };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

async function cpuPerOp(op: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let round = 0; round < OPS / CONCURRENT; round += 1) await Promise.all(Array.from({ length: CONCURRENT }, op));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / OPS;
}

// The earlier tree's modules are loaded by path, so they are untyped here.
async function before(tree: string): Promise<{ post(): Promise<unknown>; page(): Promise<unknown> }> {
  const { Storage } = await import(join(tree, 'src/storage/storage.ts')) as any;
  const { parseQuery } = await import(join(tree, 'src/parsers/query.ts')) as any;
  const { historyPage, MESSAGE_FIELDS } = await import(join(tree, 'src/resources/messages/history.ts')) as any;
  const s = new Storage(':memory:', { synchronous: 'OFF' });
  s.users.insertUser({ id: 'u1', login: 'one', passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  s.sessions.insertSession({ id: 's1', tokenHash: HASH, userId: 'u1', createdAt: 1, expiresAt: 9e15, maxExpiresAt: 9e15 });
  s.chats.insertChat({ id: 'c1', kind: 'group', directKey: null, title: 't', ownerId: 'u1', createdAt: 1, updatedAt: 1 });
  s.chats.addMember('c1', 'u1', 1);
  let sequence = 0;
  return {
    post: async () => {
      s.sessions.findSessionByTokenHash(HASH);
      s.chats.findChatForMember('c1', 'u1');
      await s.writeTogether(() => {
        s.chats.findChatForMember('c1', 'u1');
        const row = message(++sequence);
        s.messages.insertMessage(row);
        s.events.append({ type: 'message.created', chatId: 'c1', createdAt: 1, data: row });
        return row;
      });
    },
    page: async () => {
      s.sessions.findSessionByTokenHash(HASH);
      const access = s.chats.findChatForMember('c1', 'u1');
      const { source, query } = historyPage(access.id, parseQuery('limit=50', MESSAGE_FIELDS, { reserved: ['after', 'before'] }));
      return s.pages.listPage(source, query);
    },
  };
}

async function after(): Promise<{ post(): Promise<unknown>; page(): Promise<unknown> }> {
  const { SqliteStore } = await import('../src/storage/sqlite/sqlite-store.ts');
  const { parseQuery } = await import('../src/parsers/query.ts');
  const { historyPage, MESSAGE_FIELDS } = await import('../src/resources/messages/history.ts');
  const s = new SqliteStore(':memory:', { synchronous: 'OFF' });
  await s.users.insertUser({ id: 'u1', login: 'one', passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  await s.sessions.insertSession({ id: 's1', tokenHash: HASH, userId: 'u1', createdAt: 1, expiresAt: 9e15, maxExpiresAt: 9e15, lastUsedAt: 1, userAgent: null, address: null });
  await s.chats.insertChat({ id: 'c1', kind: 'group', directKey: null, title: 't', ownerId: 'u1', createdAt: 1, updatedAt: 1 });
  await s.chats.addMember('c1', 'u1', 1);
  let sequence = 0;
  return {
    post: async () => {
      await s.sessions.findSessionByTokenHash(HASH);
      await s.chats.findChatForMember('c1', 'u1');
      await s.writeTogether(async (tx) => {
        await tx.chats.findChatForMember('c1', 'u1');
        const row = message(++sequence);
        await tx.messages.insertMessage(row);
        await tx.events.append({ type: 'message.created', chatId: 'c1', createdAt: 1, data: row });
        return row;
      });
    },
    page: async () => {
      await s.sessions.findSessionByTokenHash(HASH);
      const access = (await s.chats.findChatForMember('c1', 'u1'))!;
      const { query, bounds } = historyPage(parseQuery('limit=50', MESSAGE_FIELDS, { reserved: ['after', 'before'] }));
      return s.collections.listMessages(access.id, query, bounds);
    },
  };
}

const [tree, roundsText = '9'] = process.argv.slice(2);
if (tree === undefined) throw new Error('usage: node --import tsx bench/store-overhead.ts <before-tree> [rounds]');
const sides = { before: await before(resolve(tree)), after: await after() };
// Both chats hold 1000 messages before anything is timed, so the pages read the same rows.
for (let i = 0; i < 1000 / CONCURRENT; i += 1) {
  for (const side of Object.values(sides)) await Promise.all(Array.from({ length: CONCURRENT }, side.post));
}
const samples: Record<string, number[]> = {};
const rounds = Number(roundsText);
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  for (const operation of ['page', 'post'] as const) {
    for (const name of order) (samples[`${operation} ${name}`] ??= []).push(await cpuPerOp(sides[name][operation]));
  }
}
const lines = [
  `${rounds} alternating rounds of ${OPS} operations (${CONCURRENT} at a time), µs of CPU per operation, medians.`,
  '',
  '| operation | before µs | after µs | before / after |',
  '|---|---:|---:|---:|',
];
for (const operation of ['page', 'post']) {
  const b = median(samples[`${operation} before`]!);
  const a = median(samples[`${operation} after`]!);
  lines.push(`| ${operation === 'page' ? 'session + membership + page of 50 (of 1000)' : 'session + membership + group-committed insert and event'} | ${b.toFixed(1)} | ${a.toFixed(1)} | **${(b / a).toFixed(2)}x** |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
