// One resource's reply: 200 and enveloped unless said otherwise; headers only when given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { singleReply } from '../../src/resources/single-reply.ts';

const LINKS = [{ rel: 'collection', href: '/chats' }];

test('singleReply answers 200, enveloped, with its links and no headers of its own', () => {
  assert.deepEqual(singleReply('chat', { id: 'c1' }, LINKS), {
    status: 200,
    representation: { kind: 'single', type: 'chat', enveloped: true, data: { id: 'c1' }, links: LINKS },
  });
});

test('singleReply takes a status, headers and a bare body', () => {
  assert.deepEqual(singleReply('user', { id: 'u1' }, LINKS, { status: 201, headers: { Location: '/users/u1' }, enveloped: false }), {
    status: 201,
    headers: { Location: '/users/u1' },
    representation: { kind: 'single', type: 'user', enveloped: false, data: { id: 'u1' }, links: LINKS },
  });
});
