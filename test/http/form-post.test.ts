// The form mechanism's pure parts: which posts are forms, the JSON body a form's fields stand for, and `_back`.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import { formBody, isFormPost, MAX_BACK_LENGTH, readFormPost, samePath, type FormShape, type FormSubmission } from '../../src/http/form-post.ts';
import { HttpError } from '../../src/http/http-error.ts';

const ORIGIN = 'http://127.0.0.1:8080';

function request(headers: Record<string, string>, body = '', method = 'POST'): IncomingMessage {
  const stream = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
  Object.assign(stream, { method, headers });
  return stream;
}

function submission(pairs: [string, string][]): FormSubmission {
  const fields = new Map<string, string[]>();
  for (const [name, value] of pairs) fields.set(name, [...(fields.get(name) ?? []), value]);
  return { kind: 'urlencoded', method: 'POST', fields, back: undefined, body: undefined };
}

test('a post is a form only with a form media type, this server\'s Origin and no Authorization', () => {
  const rows: { what: string; headers: Record<string, string>; method?: string; expected: boolean }[] = [
    { what: 'urlencoded, own origin', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN }, expected: true },
    { what: 'with a charset', headers: { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8', origin: ORIGIN }, expected: true },
    { what: 'multipart, own origin', headers: { 'content-type': 'multipart/form-data; boundary=x', origin: ORIGIN }, expected: true },
    { what: 'no Origin', headers: { 'content-type': 'application/x-www-form-urlencoded' }, expected: false },
    { what: 'Origin null', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' }, expected: false },
    { what: 'another origin', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:8081' }, expected: false },
    { what: 'a bearer token', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, authorization: 'Bearer abc' }, expected: false },
    { what: 'JSON', headers: { 'content-type': 'application/json', origin: ORIGIN }, expected: false },
    { what: 'text/plain (a form may send it, but no resource reads it)', headers: { 'content-type': 'text/plain', origin: ORIGIN }, expected: false },
    { what: 'a PUT', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN }, method: 'PUT', expected: false },
  ];
  for (const row of rows) assert.equal(isFormPost(request(row.headers, '', row.method), ORIGIN), row.expected, row.what);
});

test('the fields become the route\'s JSON body: envelope, lists, empty as absent or null, a repeated field refused', () => {
  const rows: { what: string; pairs: [string, string][]; shape: FormShape; expected: unknown }[] = [
    { what: 'bare fields', pairs: [['login', 'alice'], ['password', 'pass word']], shape: { envelope: false }, expected: { login: 'alice', password: 'pass word' } },
    { what: 'in the envelope', pairs: [['text', 'hi'], ['replyTo', '01J']], shape: { envelope: true }, expected: { data: { text: 'hi', replyTo: '01J' } } },
    { what: 'an empty field is absent', pairs: [['text', 'hi'], ['replyTo', '']], shape: { envelope: true }, expected: { data: { text: 'hi' } } },
    { what: 'or null where null means something', pairs: [['lastReadId', '']], shape: { envelope: true, nullable: ['lastReadId'] }, expected: { data: { lastReadId: null } } },
    { what: 'a list from repeated fields', pairs: [['title', 't'], ['members', 'a'], ['members', ''], ['members', 'b']], shape: { envelope: true, lists: ['members'] }, expected: { data: { title: 't', members: ['a', 'b'] } } },
    { what: 'a list of one', pairs: [['members', 'a']], shape: { envelope: true, lists: ['members'] }, expected: { data: { members: ['a'] } } },
    { what: 'nothing', pairs: [], shape: { envelope: true }, expected: { data: {} } },
    { what: 'the page\'s own fields left out', pairs: [['_confirm', 'yes'], ['title', 't']], shape: { envelope: true }, expected: { data: { title: 't' } } },
    { what: 'true and false as booleans where the shape says so', pairs: [['active', 'false'], ['role', 'true']], shape: { envelope: false, booleans: ['active'] }, expected: { active: false, role: 'true' } },
    { what: 'any other text of a boolean field stays text, for the handler to refuse', pairs: [['active', 'yes']], shape: { envelope: false, booleans: ['active'] }, expected: { active: 'yes' } },
  ];
  for (const row of rows) assert.deepEqual(formBody(submission(row.pairs), row.shape), row.expected, row.what);
  assert.throws(() => formBody(submission([['text', 'a'], ['text', 'b']]), { envelope: true }), (error: HttpError) => {
    assert.deepEqual(error.errors, [{ field: 'data.text', message: 'must be given once' }]);
    return error.status === 400;
  });
});

test('readFormPost takes out _method and _back; any other _method value is a 400 naming it', async () => {
  const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };
  const read = await readFormPost(request(headers, '_method=patch&title=A+%26+B&_back=%2Fchats%2F1'), 1024, '');
  assert.deepEqual(read, { kind: 'urlencoded', method: 'PATCH', fields: new Map([['title', ['A & B']]]), back: '/chats/1', body: undefined });
  const multipart = await readFormPost(request({ ...headers, 'content-type': 'multipart/form-data; boundary=x' }, '--x--'), 1024, '');
  assert.equal(multipart.kind, 'multipart');
  for (const body of ['_method=GET', '_method=POST', '_method=DELETE&_method=DELETE', '_method=', '_method=OPTIONS']) {
    await assert.rejects(readFormPost(request(headers, body), 1024, ''), (error: HttpError) => {
      assert.deepEqual(error.errors, [{ field: '_method', message: 'must be given once, as PUT, PATCH or DELETE' }]);
      return error.status === 400;
    }, body);
  }
  await assert.rejects(readFormPost(request(headers, `text=${'x'.repeat(2000)}`), 1024, ''), (error: HttpError) => error.status === 413);
});

test('_back is a path of this server under the base path, percent-encoded to ASCII, or nothing', () => {
  const rows: [string | undefined, string, string | undefined][] = [
    ['/chats/1/messages', '', '/chats/1/messages'],
    ['/chats/1/messages?before=01J', '', '/chats/1/messages?before=01J'],
    ['/api/chats', '/api', '/api/chats'],
    ['/chats', '/api', undefined],
    ['//evil.example/x', '', undefined],
    ['/\\evil.example', '', undefined],
    ['https://evil.example/', '', undefined],
    ['javascript:alert(1)', '', undefined],
    ['/ /evil', '', undefined],
    ['/\t/evil.example', '', undefined],
    ['', '', undefined],
    [undefined, '', undefined],
    // Kept as a URI can hold it (docs/html.md, forms rule 4): ASCII, percent-encoded as UTF-8.
    ['/\u3000', '', '/%E3%80%80'],
    ['/caf\u00e9?q=\u2603#m', '', '/caf%C3%A9?q=%E2%98%83#m'],
    ['/\u0085\u200e', '', '/%C2%85%E2%80%8E'],
    ['/\ud800', '', '/%EF%BF%BD'],
    ['/a%2Fb%zz%', '', '/a%2Fb%25zz%25'],
    ['/a"<>`{}|^', '', '/a%22%3C%3E%60%7B%7D%7C%5E'],
    ['/chats?filter[title][]=x', '', '/chats?filter[title][]=x'],
    ['/x\r\nSet-Cookie: a=b', '', undefined],
    ['/x\u0000', '', undefined],
    [`/${'\u3000'.repeat(227)}`, '', `/${'%E3%80%80'.repeat(227)}`],
    [`/${'\u3000'.repeat(228)}`, '', undefined],
  ];
  for (const [value, basePath, expected] of rows) assert.equal(samePath(value, basePath), expected, String(value));
  // Whatever a page sends, what comes back is undefined or a path no browser reads as another host.
  fc.assert(fc.property(fc.string(), (value) => {
    const kept = samePath(value, '');
    return kept === undefined || (kept.startsWith('/') && !/^\/[/\\]/.test(kept) && !/[\s\\]/.test(kept));
  }));
  // And it is always a header field value Node writes (RFC 9110 §5.5), whatever the characters.
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (value) => {
    const kept = samePath(`/${value}`, '');
    return kept === undefined || (/^[\x21-\x7e]+$/.test(kept) && kept.length <= MAX_BACK_LENGTH);
  }));
});
