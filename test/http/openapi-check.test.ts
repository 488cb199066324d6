// The checker every test answer goes through: it accepts what the document says and refuses each kind of
// difference, so a green suite means the answers match the document (and not that the checker is lax).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkExchange, type CheckedExchange } from './openapi-check.ts';

const USER = { id: '01JDAXW3K8Q7M2C6R9T0V5B4NE', login: 'alice', avatar: null, role: 'member', active: true, kind: 'user', ownerId: null, createdAt: '2026-11-21T09:30:00.000Z', updatedAt: '2026-11-21T09:30:00.000Z' };
const CHAT = { id: 'c1', kind: 'group', title: 'Lunch', ownerId: USER.id, members: [USER.id], createdAt: USER.createdAt, updatedAt: USER.updatedAt };
const JSON_HEADERS = { 'content-type': 'application/json', etag: '"x"' };

function exchange(overrides: Partial<CheckedExchange> & { body?: unknown }): CheckedExchange {
  const { body, ...rest } = overrides;
  return { method: 'GET', url: `/users/${USER.id}`, basePath: '', status: 200, headers: JSON_HEADERS, text: JSON.stringify(body ?? USER), ...rest };
}

const ACCEPTED: { what: string; input: CheckedExchange; expected: string | undefined }[] = [
  { what: 'a user as documented', input: exchange({}), expected: 'getUsersUserId' },
  { what: 'HEAD: the GET operation, no body', input: exchange({ method: 'HEAD', text: '' }), expected: 'getUsersUserId' },
  { what: '304 with its ETag', input: exchange({ status: 304, text: '', headers: { etag: '"x"' } }), expected: 'getUsersUserId' },
  { what: 'the base path is taken off', input: exchange({ url: `/api/users/${USER.id}`, basePath: '/api' }), expected: 'getUsersUserId' },
  { what: 'a chat in its envelope', input: exchange({ url: '/chats/c1', body: { data: CHAT } }), expected: 'getChatsChatId' },
  { what: 'PUT creating: 201 with Location', input: exchange({ method: 'PUT', url: '/chats/c1', status: 201, headers: { ...JSON_HEADERS, location: '/chats/c1' }, body: { data: CHAT } }), expected: 'putChatsChatId' },
  { what: 'XML is not parsed, only its type checked', input: exchange({ headers: { 'content-type': 'application/xml; charset=utf-8', etag: '"x"' }, text: '<user/>' }), expected: 'getUsersUserId' },
  { what: 'a documented problem', input: exchange({ status: 404, headers: { 'content-type': 'application/problem+json' }, body: { type: 't', title: 'Not Found', status: 404, detail: 'No user', code: 'ERR_NOT_FOUND' } }), expected: 'getUsersUserId' },
  {
    what: 'a body the server took, as the document allows',
    input: exchange({ method: 'POST', url: '/users', status: 201, headers: { ...JSON_HEADERS, location: '/users/x' }, request: { contentType: 'application/json; charset=utf-8', text: '{"login":"alice","password":"long enough"}' } }),
    expected: 'postUsers',
  },
  {
    what: 'a refused body says nothing about the document',
    input: exchange({ method: 'POST', url: '/users', status: 400, headers: { 'content-type': 'application/problem+json' }, body: { type: 't', title: 'x', status: 400, detail: 'x', code: 'ERR_VALIDATION' }, request: { contentType: 'application/json', text: '{"login":1}' } }),
    expected: 'postUsers',
  },
  { what: 'OPTIONS with Allow', input: exchange({ method: 'OPTIONS', status: 204, headers: { allow: 'OPTIONS, GET, HEAD, PATCH' }, text: '' }), expected: undefined },
  { what: 'an unknown path: 404', input: exchange({ url: '/nowhere', status: 404, headers: { 'content-type': 'application/problem+json' }, body: { type: 't', title: 'Not Found', status: 404, detail: 'x', code: 'ERR_NOT_FOUND' } }), expected: undefined },
];

for (const { what, input, expected } of ACCEPTED) {
  test(`accepted: ${what}`, () => {
    assert.equal(checkExchange(input), expected);
  });
}

const REFUSED: { what: string; input: CheckedExchange; expected: RegExp }[] = [
  { what: 'a status the operation does not document', input: exchange({ status: 409 }), expected: /documents .* not 409/ },
  { what: 'a required header missing (ETag)', input: exchange({ headers: { 'content-type': 'application/json' } }), expected: /requires the header ETag/ },
  { what: 'a 201 without Location', input: exchange({ method: 'POST', url: '/chats', status: 201, body: { data: CHAT } }), expected: /requires the header Location/ },
  { what: 'a header of the wrong form (a weak ETag)', input: exchange({ headers: { 'content-type': 'application/json', etag: 'W/"x"' } }), expected: /the header ETag: W\/"x" does not match/ },
  { what: 'a required field missing', input: exchange({ body: { ...USER, login: undefined } }), expected: /must have required property 'login'/ },
  { what: 'a field the document does not name', input: exchange({ body: { ...USER, passwordHash: 'x' } }), expected: /must NOT have additional properties/ },
  { what: 'a field of the wrong type', input: exchange({ body: { ...USER, createdAt: 'yesterday' } }), expected: /createdAt must match format "date-time"/ },
  { what: 'a chat without its envelope', input: exchange({ url: '/chats/c1', body: CHAT }), expected: /required property 'data'/ },
  { what: 'a media type the document does not give', input: exchange({ headers: { 'content-type': 'text/plain', etag: '"x"' } }), expected: /Content-Type text\/plain/ },
  { what: 'a body on a 204', input: exchange({ method: 'DELETE', url: '/chats/c1', status: 204, text: '{}' }), expected: /no body/ },
  { what: 'a problem without its code', input: exchange({ status: 404, headers: { 'content-type': 'application/problem+json' }, body: { type: 't', title: 'x', status: 404, detail: 'x' } }), expected: /required property 'code'/ },
  { what: 'a 401 without WWW-Authenticate', input: exchange({ status: 401, headers: { 'content-type': 'application/problem+json' }, body: { type: 't', title: 'x', status: 401, detail: 'x', code: 'ERR_UNAUTHENTICATED' } }), expected: /WWW-Authenticate/ },
  { what: 'a 200 on a path with no such method', input: exchange({ method: 'POST', url: '/health' }), expected: /not 405 or 400/ },
  { what: 'a 405 without Allow', input: exchange({ method: 'POST', url: '/health', status: 405, headers: {}, text: '' }), expected: /405 must carry Allow/ },
  {
    what: 'a body the server took that the document refuses',
    input: exchange({ method: 'POST', url: '/users', status: 201, headers: { ...JSON_HEADERS, location: '/users/x' }, request: { contentType: 'application/json', text: '{"login":"al","password":"long enough"}' } }),
    expected: /took a body the document refuses: \/login must NOT have fewer than 3 characters/,
  },
  {
    what: 'a JSON body of a type the operation does not list',
    input: exchange({ method: 'PATCH', url: '/chats/c1', body: { data: CHAT }, request: { contentType: 'application/vnd.other+json', text: '{}' } }),
    expected: /a application\/vnd.other\+json body the document does not list/,
  },
  { what: 'OPTIONS without Allow', input: exchange({ method: 'OPTIONS', status: 204, headers: {}, text: '' }), expected: /must answer Allow/ },
];

for (const { what, input, expected } of REFUSED) {
  test(`refused: ${what}`, () => {
    assert.throws(() => checkExchange(input), expected);
  });
}
