// GET /metrics on the second port: Prometheus text that a parser reads, counters that move with traffic,
// route patterns instead of raw ids; the API port never serves it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { histogramOf, parsePrometheus, typeOf, valueOf, type PromMetrics } from '../metrics/prometheus-parser.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn, withServer } from './client.ts';
import { dropLoginPauses } from './no-login-pauses.ts';
import { openReady } from './event-stream.ts';

// The metrics listener is not the API that /openapi.json describes: its answers are not checked against it.
const NOT_THE_API = 'the metrics listener, not the API';

async function scrape(server: RunningServer): Promise<{ text: string; metrics: PromMetrics }> {
  assert.ok(server.metricsUrl, 'startServer exposes the metrics URL');
  const res = await call(server.metricsUrl, 'GET', '', { unchecked: NOT_THE_API });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return { text: res.text, metrics: await parsePrometheus(res.text) };
}

/** The access is recorded when the response closes, which may be just after the client has read it: scrape until it shows. */
async function scrapeUntil(server: RunningServer, done: (metrics: PromMetrics) => boolean): Promise<{ text: string; metrics: PromMetrics }> {
  for (;;) {
    const scraped = await scrape(server);
    if (done(scraped.metrics)) return scraped;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const requests = (metrics: PromMetrics, method: string, route: string, status: string) => valueOf(metrics, 'chat_http_requests_total', { method, route, status });

test('every metric the contract lists is there, typed, with the chat_ prefix', async (t) => {
  const server = await withServer(t, { metricsPort: 0 });
  const { metrics } = await scrape(server);
  const expected: Record<string, string> = {
    chat_http_requests_total: 'counter',
    chat_http_request_duration_seconds: 'histogram',
    chat_rate_limited_requests_total: 'counter',
    chat_login_failures_total: 'counter',
    chat_db_write_batches_total: 'counter',
    chat_db_write_batch_size: 'histogram',
    chat_event_streams_open: 'gauge',
    chat_events_written_total: 'counter',
    chat_events_delivered_total: 'counter',
    chat_ephemeral_delivered_total: 'counter',
    chat_event_loop_lag_seconds: 'gauge',
    chat_event_loop_lag_p99_seconds: 'gauge',
    chat_event_loop_lag_max_seconds: 'gauge',
    chat_process_resident_memory_bytes: 'gauge',
  };
  assert.deepEqual(Object.fromEntries(Object.keys(metrics).map((name) => [name, typeOf(metrics, name)])), expected);
  assert.ok(valueOf(metrics, 'chat_process_resident_memory_bytes') > 1_000_000, 'RSS is reported in bytes');
  assert.ok(valueOf(metrics, 'chat_event_loop_lag_max_seconds') >= 0);
});

test('requests are counted and timed by method, route pattern and status, never by raw path', async (t) => {
  const server = await withServer(t, { metricsPort: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const chat = await createChat(server, alice, { title: 'Metrics' });
  await postMessage(server, alice, chat.id, { text: 'one' });
  const before = (await scrapeUntil(server, (metrics) => requests(metrics, 'POST', '/chats/:chatId/messages', '201') === 1)).metrics;
  for (let i = 0; i < 3; i++) assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token })).status, 200);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}x/nothing/here`, { token: alice.token })).status, 404);
  assert.equal((await call(server, 'DELETE', '/health')).status, 405);
  assert.equal((await call(server, 'HEAD', `/chats/${chat.id}`, { token: alice.token })).status, 200);
  const { text, metrics } = await scrapeUntil(server, (current) => requests(current, 'HEAD', '/chats/:chatId', '200') === 1);
  assert.equal(requests(before, 'GET', '/chats/:chatId', '200'), 0);
  assert.equal(requests(metrics, 'GET', '/chats/:chatId', '200'), 3);
  assert.equal(requests(metrics, 'GET', 'unmatched', '404'), 1);
  assert.equal(requests(metrics, 'DELETE', '/health', '405'), 1, 'a 405 is counted under the pattern of the path');
  assert.equal(requests(metrics, 'POST', '/users', '201'), 1);
  assert.equal(requests(metrics, 'POST', '/session', '201'), 1);
  const timed = histogramOf(metrics, 'chat_http_request_duration_seconds', { method: 'GET', route: '/chats/:chatId', status: '200' });
  assert.equal(timed?.count, 3);
  assert.equal(timed?.buckets['+Inf'], 3);
  assert.ok((timed?.sum ?? 0) > 0);
  assert.ok(!text.includes(chat.id), 'no raw id in any label');
  assert.ok(!text.includes(alice.userId), 'no user id in any label');
});

test('login failures, rate-limited answers and write batches are counted', async (t) => {
  const server = await withServer(t, { metricsPort: 0, loginMaxFailures: 2 });
  dropLoginPauses(server);
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const batchesBefore = valueOf((await scrape(server)).metrics, 'chat_db_write_batches_total');
  for (let i = 0; i < 2; i++) assert.equal((await call(server, 'POST', '/session', { json: { login: 'alice', password: 'wrong password' } })).status, 401);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'alice', password: 'wrong password' } })).status, 429);
  const chat = await createChat(server, alice, { title: 'Writes' });
  await Promise.all(['a', 'b', 'c'].map((text) => postMessage(server, alice, chat.id, { text })));
  const { metrics } = await scrapeUntil(server, (current) => requests(current, 'POST', '/chats/:chatId/messages', '201') === 3);
  assert.equal(valueOf(metrics, 'chat_login_failures_total'), 2, 'the 429 refused before checking the password is not a failure');
  assert.equal(valueOf(metrics, 'chat_rate_limited_requests_total', { route: '/session' }), 1);
  const batches = valueOf(metrics, 'chat_db_write_batches_total') - batchesBefore;
  const sizes = histogramOf(metrics, 'chat_db_write_batch_size');
  assert.ok(batches >= 2 && batches <= 4, `a chat and three messages took ${batches} batches`);
  assert.equal(sizes?.count, valueOf(metrics, 'chat_db_write_batches_total'));
});

test('open event streams are read from the hub; events written and delivered are counted as they happen', async (t) => {
  const server = await withServer(t, { metricsPort: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const first = await openReady(server, { token: alice.token });
  const second = await openReady(server, { token: alice.token });
  t.after(() => { first.close(); second.close(); });
  assert.equal(valueOf((await scrape(server)).metrics, 'chat_event_streams_open'), 2);
  first.close();
  await scrapeUntil(server, (metrics) => valueOf(metrics, 'chat_event_streams_open') === 1);
  // 1 chat.created + 3 messages written; alice's stream gets all 4, bob (not a member) none.
  const chat = await createChat(server, alice, { title: 'Counted' });
  for (let i = 0; i < 3; i++) await postMessage(server, alice, chat.id, { text: `m${i}` });
  // A write refused inside its transaction writes no event and counts none.
  assert.equal((await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'x', replyTo: 'nope' } } })).status, 400);
  await second.logEventCount(4);
  const scraped = (await scrapeUntil(server, (metrics) => valueOf(metrics, 'chat_events_delivered_total') === 4)).metrics;
  assert.equal(valueOf(scraped, 'chat_events_written_total'), 4);
  // A long-poll's answer counts what it carries.
  const poll = await call(server, 'GET', '/events?after=0&wait=0', { token: alice.token });
  assert.equal(poll.body.data.length, 4);
  assert.equal((await call(server, 'GET', '/events?after=0&wait=0', { token: bob.token })).body.data.length, 0);
  assert.equal(valueOf((await scrape(server)).metrics, 'chat_events_delivered_total'), 8);
});

test('only the metrics port serves /metrics; it has no other resource and takes only GET and HEAD', async (t) => {
  const server = await withServer(t, { metricsPort: 0 });
  assert.notEqual(new URL(server.metricsUrl!).port, String(server.port));
  const onApi = await call(server, 'GET', '/metrics');
  assert.equal(onApi.status, 404);
  assert.equal(onApi.headers['content-type'], 'application/problem+json');
  const metricsBase = server.metricsUrl!.replace(/\/metrics$/, '');
  assert.equal((await call(metricsBase, 'GET', '/chats', { unchecked: NOT_THE_API })).status, 404);
  const post = await call(server.metricsUrl!, 'POST', '', { unchecked: NOT_THE_API });
  assert.equal(post.status, 405);
  assert.equal(post.headers['allow'], 'GET, HEAD');
  const head = await call(server.metricsUrl!, 'HEAD', '', { unchecked: NOT_THE_API });
  assert.equal(head.status, 200);
  assert.equal(head.raw.length, 0);
});

test('without --metrics-port there is no metrics listener and requests are not recorded', async (t) => {
  const server = await withServer(t);
  assert.equal(server.metricsUrl, undefined);
  await call(server, 'GET', '/health');
  assert.equal(server.app.services.metrics.requests.get('GET', '/health', '200'), 0);
});
