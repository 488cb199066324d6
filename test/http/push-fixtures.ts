// Shared by the Web Push tests (docs/protocol.md §17): a server that pushes to a push service on loopback.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { RunningServer, StartOptions } from '../../src/index.ts';
import { call, withServer, type LoggedIn } from './client.ts';
import { startPushService, type PushService } from './push-service.ts';

export const SUBJECT = 'mailto:ops@chat.example';
export const FAST = { outbound: { pollMs: 20, retry: { firstDelayMs: 20, maxDelayMs: 100, windowMs: 24 * 3_600_000 } } };

export async function setUp(t: TestContext, options: StartOptions = {}): Promise<{ server: RunningServer; push: PushService }> {
  const server = await withServer(t, { pushSubject: SUBJECT, pushAllowInsecure: true, eventTimings: FAST, ...options });
  const push = await startPushService(t);
  push.expect = { publicKey: (await call(server, 'GET', '/push/key')).body.publicKey, subject: SUBJECT };
  return { server, push };
}

export async function subscribe(server: RunningServer, push: PushService, who: LoggedIn, name = who.login): Promise<string> {
  const made = await call(server, 'POST', '/push-subscriptions', { token: who.token, json: push.subscribe(name) });
  assert.equal(made.status, 201, made.text);
  return made.body.data.id;
}

export async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}
