// --workers 2 (docs/protocol.md §12.1, §13.4): a deactivation answered by one process ends the user's event streams
// held by both, within a second, through the session.ended each process's hub reads from the log (not at the
// 15-second session check). Connections are handed to the workers in turn (node:cluster's round-robin), so of
// streams opened one after another on fresh connections, some are held by the worker that does not answer the PATCH.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { openReady, type EventStream } from '../http/event-stream.ts';
import { register, startWorkers } from './workers-server.ts';

/** When the stream ended (performance.now()). */
async function endTime(stream: EventStream): Promise<number> {
  await stream.ended;
  return performance.now();
}

test('--workers 2: a deactivation answered by one process closes the user\'s streams on both within a second', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const admin = await register(server.url, 'admin');
  const bob = await register(server.url, 'bob');
  const carol = await register(server.url, 'carol');
  // Four streams on four fresh connections: two on each worker. Carol's stream, on a third, must stay open.
  const streams: EventStream[] = [];
  for (let i = 0; i < 4; i++) streams.push(await openReady(server.url, { token: bob.token }));
  const bystander = await openReady(server.url, { token: carol.token });
  t.after(() => [...streams, bystander].forEach((stream) => stream.close()));

  const ends = streams.map(endTime);
  const res = await call(server.url, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: false } });
  const answeredAt = performance.now();
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.active, false);

  // A stream may end before the answer is read (below 0: it closed first).
  const times = (await Promise.all(ends)).map((at) => at - answeredAt);
  const slowest = Math.max(...times);
  t.diagnostic(`streams closed ${times.map((ms) => `${ms.toFixed(1)} ms`).join(', ')} after the PATCH's answer (slowest ${slowest.toFixed(1)} ms)`);
  assert.ok(slowest < 1000, `a stream stayed open ${slowest.toFixed(0)} ms after the answer`);
  for (const stream of streams) assert.deepEqual(stream.logEvents.map((event) => event.type), ['user.updated', 'session.ended']);
  // Both workers refuse the token (each request on its own connection, so on each worker in turn).
  for (let i = 0; i < 4; i++) assert.equal((await call(server.url, 'GET', '/session', { token: bob.token })).status, 401);
  assert.equal(bystander.closed, false, 'no one else\'s stream ends');
});
