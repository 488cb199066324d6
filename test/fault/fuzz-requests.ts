// fast-check arbitraries for whole HTTP requests: methods, paths from the route table, query conventions,
// headers and bodies (JSON, urlencoded, multipart), valid and garbage alike.
import fc from 'fast-check';
import { makePng } from '../../bench/png.ts';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body with Transfer-Encoding: chunked, in two pieces, instead of Content-Length. */
  chunked: boolean;
  /** Which session to authenticate with, if any: the fuzzer substitutes the live token. */
  auth: 'none' | 'owner' | 'member' | 'outsider';
  /** How a token is presented, or a garbage Authorization. */
  authForm: 'bearer' | 'lowercase' | 'cookie' | 'cookie-with-origin';
  /** A signed-in, same-origin HTML form post (docs/html.md, forms): the method its `_method` names, else POST. */
  form?: { standsFor: string };
}

/** Ids that exist on the server, by path parameter name; refreshed by the fuzzer as resources come and go. */
export interface IdPools {
  [param: string]: string[];
}

const PNG = makePng(8, 8, 7);
const FIELD_NAMES = ['id', 'login', 'avatar', 'title', 'members', 'ownerId', 'text', 'replyTo', 'chatId', 'authorId',
  'userId', 'createdAt', 'updatedAt', 'expiresAt', 'contentType', 'imageWidth', 'x', 'y', 'width', 'height', 'nope', '__proto__'];
const ODD_METHODS = ['TRACE', 'PROPFIND', 'PURGE', 'SEARCH', 'LINK', 'MKCOL', 'COPY', 'REPORT', 'QUERY', 'LOCK', 'M-SEARCH'];

const garbageText = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~!$\'()*+,;:@"<>[]\\^`{|}%'.split('')), maxLength: 40 });
const encodedUnicode = fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => encodeURIComponent(text));
const badPercent = fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '..', '.', '%2e%2e', '%C0%AF', '%FF%FE', '%u0041', '%252F');
const validId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

function paramValue(pools: IdPools, key: string): fc.Arbitrary<string> {
  const known = pools[key] ?? [];
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: 2, arbitrary: validId },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 300 }).map((length) => 'a'.repeat(length)) },
    { weight: 1, arbitrary: encodedUnicode.filter((text) => text.length > 0) },
    { weight: 1, arbitrary: badPercent },
    { weight: 1, arbitrary: garbageText.filter((text) => text.length > 0).map((text) => text.replaceAll('%', '%25')) },
  ];
  if (known.length > 0) options.push({ weight: 24, arbitrary: fc.constantFrom(...known) });
  return fc.oneof(...options);
}

function pathFromPattern(pattern: string, pools: IdPools): fc.Arbitrary<string> {
  const keys = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const values = fc.tuple(...keys.map((key) => paramValue(pools, key)));
  const suffix = fc.oneof({ weight: 18, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '//x') });
  return fc.tuple(values, suffix).map(([filled, extra]) => {
    let path = pattern;
    keys.forEach((key, index) => { path = path.replace(`:${key}`, filled[index]!); });
    return path + extra;
  });
}

const randomPath = fc.oneof(
  fc.constantFrom('/', '//', '/users/', '//users', '/USERS', '/health/', '/chats/x/y/z/w', '/%2e%2e/users', '/api/users', '/search/x', '/openapi.json/x', '/users/%', '/*'),
  fc.array(fc.oneof(garbageText.map((text) => text.replaceAll('%', '%25')), encodedUnicode, badPercent), { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
);

const QUERY_FIELDS = [...FIELD_NAMES, 'after', 'before', 'q', 'limit', 'offset', 'sort', 'order', 'filter'];
const QUERY_VALUES = fc.oneof(
  fc.constantFrom('', '0', '1', '20', '50', '100', '101', '-1', '1.5', 'abc', '999999999999999999999', '1e3', ' 5'),
  fc.constantFrom('2026-01-01', '2026-01-01T00:00:00.000Z', '2026-01-01-2026-02-01', '2026-13-45', 'now', '2026-01-01T00:00:00.000Z-2027-01-01T00:00:00.000Z'),
  fc.constantFrom('%', '%zz', 'a%', '_', '%25', 'ann', 'ANN', '"quoted"', 'a*', 'NEAR(a b)', 'a AND b', '-x', 'x:y', '^a', '(', ')', '\'', ';DROP TABLE users;--'),
  garbageText,
);

function queryPart(pools: IdPools): fc.Arbitrary<string> {
  const enc = (text: string): string => encodeURIComponent(text);
  const field = fc.constantFrom(...QUERY_FIELDS);
  const messageIds = pools['messageId'] ?? [];
  return fc.oneof(
    fc.tuple(fc.constantFrom('limit', 'offset'), QUERY_VALUES).map(([key, value]) => `${key}=${enc(value)}`),
    fc.tuple(field, fc.constantFrom('eq', 'ne', 'like', 'in', 'gt', 'gte', 'lt', 'lte', 'EQ', 'regex', ''), QUERY_VALUES)
      .map(([name, op, value]) => `filter=${enc(`${name}|${op}|${value}`)}`),
    fc.tuple(field, QUERY_VALUES).map(([name, value]) => `filter[${name}][]=${enc(value)}`),
    fc.tuple(field, fc.constantFrom('ASC', 'desc', 'Desc', 'up', '')).map(([name, direction]) => `sort[${name}]=${direction}`),
    fc.tuple(field, fc.constantFrom('asc', 'DESC', 'sideways')).map(([name, order]) => `sort=${name}&order=${order}`),
    fc.tuple(field, fc.constantFrom('=', '=>', '=<', '>=', '<=', '=>=', '[]='), QUERY_VALUES).map(([name, op, value]) => `${name}${op}${enc(value)}`),
    fc.tuple(fc.constantFrom('after', 'before'), messageIds.length > 0 ? fc.oneof(fc.constantFrom(...messageIds), validId) : validId)
      .map(([key, id]) => `${key}=${id}`),
    QUERY_VALUES.map((value) => `q=${enc(value)}`),
    fc.constantFrom('&&', '=', '==x', '%zz=1', 'a=%zz', 'limit', 'limit=1&limit=2', 'q', 'filter', 'sort[]=ASC', 'filter[x]=1', '__proto__=1', 'constructor[prototype]=1'),
  );
}

const jsonValue = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, '', 'x', 'a'.repeat(4001), 'ann.lee', 'a long enough password', [], {}),
  fc.string({ maxLength: 30 }),
  fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
  fc.integer(),
);

function jsonBody(pools: IdPools): fc.Arbitrary<unknown> {
  const anyKnownId = Object.values(pools).flat();
  const value = anyKnownId.length > 0 ? fc.oneof(jsonValue, fc.constantFrom(...anyKnownId), fc.array(fc.constantFrom(...anyKnownId), { maxLength: 3 })) : jsonValue;
  const object = fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 5 });
  return fc.oneof(
    { weight: 4, arbitrary: object },
    { weight: 4, arbitrary: object.map((data) => ({ data })) },
    { weight: 1, arbitrary: fc.json().map((text) => JSON.parse(text) as unknown) },
  );
}

function multipartBody(valid = false): fc.Arbitrary<{ contentType: string; body: Buffer }> {
  const part = fc.record({
    name: fc.constantFrom('avatar', 'x', 'y', 'width', 'height', 'other', '', 'a"b'),
    filename: fc.option(fc.constantFrom('a.png', '', '../../etc/passwd', 'x".png'), { nil: undefined }),
    type: fc.option(fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'garbage'), { nil: undefined }),
    data: fc.oneof(
      fc.constant(PNG),
      fc.constantFrom('0', '1', '4', '8', '-1', '1e9', 'abc', '').map((text) => Buffer.from(text)),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(PNG.subarray(0, 20)),
    ),
  });
  const avatarForm = fc.tuple(fc.nat(4), fc.nat(4), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })).map(([x, y, width, height]) => [
    { name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG },
    ...Object.entries({ x, y, width, height }).map(([name, value]) => ({ name, filename: undefined, type: undefined, data: Buffer.from(String(value)) })),
  ]);
  const parts = valid ? avatarForm : fc.array(part, { maxLength: 6 });
  const shapes = valid ? fc.constant('normal' as const) : fc.constantFrom('normal', 'no-end', 'wrong-boundary', 'garbage-headers');
  return fc.tuple(parts, shapes)
    .map(([parts, shape]) => {
      const boundary = 'fuzzBoundary7MA4YWxk';
      const pieces: Buffer[] = parts.flatMap((p) => [
        Buffer.from(`--${boundary}\r\n${shape === 'garbage-headers' ? 'Content-Disposition form-data\r\n' : ''}`
          + `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n`
          + `${p.type === undefined ? '' : `Content-Type: ${p.type}\r\n`}\r\n`),
        p.data,
        Buffer.from('\r\n'),
      ]);
      if (shape !== 'no-end') pieces.push(Buffer.from(`--${boundary}--\r\n`));
      const declared = shape === 'wrong-boundary' ? 'otherBoundary' : boundary;
      return { contentType: `multipart/form-data; boundary=${declared}`, body: Buffer.concat(pieces) };
    });
}

// Built once: fc.stringMatching costs about 36 ms to build (fast-check tokenizes the pattern), and wellFormedBody runs
// for every route in every round, which made building the arbitraries cost more than drawing 20,000 requests from them.
const wellFormedLogin = fc.stringMatching(/^[a-z0-9._-]{3,12}$/);

/** A body that passes validation for the route's resource, so creations and changes run to the end (201, 200). */
function wellFormedBody(pattern: string, pools: IdPools): fc.Arbitrary<{ contentType?: string; body?: Buffer }> {
  const id = (param: string): fc.Arbitrary<string> => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(pools[param] ?? ['none'])) }, { weight: 1, arbitrary: validId });
  const text = fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom('hello', '<script>alert(1)</script>', 'a'.repeat(4000), 'ünï ☃ 😀'));
  const json = (arbitrary: fc.Arbitrary<unknown>, contentType = 'application/json') =>
    arbitrary.map((data) => ({ contentType, body: Buffer.from(JSON.stringify(data)) }));
  if (pattern.endsWith('/avatar')) {
    return fc.oneof(
      json(fc.record({ avatar: fc.constant(PNG.toString('base64')), x: fc.nat(8), y: fc.nat(8), width: fc.integer({ min: 0, max: 9 }), height: fc.integer({ min: 1, max: 8 }) })),
      multipartBody(true),
    );
  }
  if (pattern.includes('/messages')) {
    return json(fc.record({ text, replyTo: fc.oneof(id('messageId'), fc.constant(null)) }, { requiredKeys: ['text'] }).map((data) => ({ data })));
  }
  if (pattern.startsWith('/chats')) {
    return json(fc.record({ title: text, members: fc.array(id('userId'), { maxLength: 3 }) }, { requiredKeys: ['title'] }).map((data) => ({ data })));
  }
  if (pattern.startsWith('/users') || pattern.startsWith('/session')) {
    return json(fc.record({ login: wellFormedLogin, password: fc.constantFrom('long enough pw', 'short'), avatar: fc.oneof(id('avatarId'), fc.constant(null)) }, { requiredKeys: [] }));
  }
  return fc.constant({});
}

function body(pools: IdPools, maxBodyBytes: number): fc.Arbitrary<{ contentType?: string; body?: Buffer }> {
  const json = (data: unknown): Buffer => Buffer.from(JSON.stringify(data));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    { weight: 8, arbitrary: fc.tuple(jsonBody(pools), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'APPLICATION/JSON'))
      .map(([data, contentType]) => ({ contentType, body: json(data) })) },
    { weight: 2, arbitrary: fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom('{', '{"a":', '[1,]', '\uFEFF{}', 'null', '"x"', '[]', '{"data":', 'NaN'))
      .map((text) => ({ contentType: 'application/json', body: Buffer.from(text) })) },
    { weight: 1, arbitrary: fc.constant({ contentType: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) }) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1000, max: 60_000 }), fc.boolean()).map(([depth, arrays]) => ({
      contentType: 'application/json',
      body: Buffer.from(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"data":'.repeat(depth)}1${'}'.repeat(depth)}`),
    })) },
    { weight: 1, arbitrary: fc.constant({ contentType: 'application/json', body: json({ text: 'x'.repeat(maxBodyBytes) }) }) },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('login', 'password', 'title', 'x', '%zz'), fc.string({ maxLength: 20 }), { maxKeys: 3 })
      .map((fields) => ({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from(new URLSearchParams(fields).toString()) })) },
    { weight: 3, arbitrary: multipartBody() },
    { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(undefined, 'text/plain', 'image/png', 'multipart/form-data', 'garbage/;;;'))
      .map(([bytes, contentType]) => ({ contentType, body: Buffer.from(bytes) })) },
  );
}

const acceptHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(undefined, undefined, 'application/json', '*/*', 'application/xml', 'text/html', 'text/*', 'application/*;q=0.5', 'text/html;q=0.9, application/xml') },
  { weight: 1, arbitrary: fc.constantFrom('image/png', 'application/json;q=0', ';;;', 'application/problem+json', '*/*;q=abc', 'text/html;level=1;q=0.5, */*;q=0.1') },
);
const conditionalValue = fc.constantFrom('*', '"abc"', 'W/"abc"', '"a", "b"', 'garbage', '');
const garbageAuthorization = fc.constantFrom('Bearer', 'Bearer ', 'Bearer garbage', 'Basic dXNlcjpwYXNz', `Bearer ${'a'.repeat(500)}`, 'Token x', 'Bearer a b', 'Bearer ====');

export function requestArbitrary(routes: readonly { method: string; pattern: string }[], pools: IdPools, maxBodyBytes: number): fc.Arbitrary<FuzzRequest> {
  const anyMethod = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
  );
  // Mostly a method the route has, so requests get past the router into the handlers; sometimes any method.
  const anyBody = body(pools, maxBodyBytes);
  const target = fc.oneof(
    // One arbitrary per route, built once: building them inside chain() for every sample is slow.
    { weight: 12, arbitrary: fc.oneof(...routes.map((route) => fc.tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: anyMethod }),
      pathFromPattern(route.pattern, pools),
      fc.oneof({ weight: 3, arbitrary: wellFormedBody(route.pattern, pools) }, { weight: 2, arbitrary: anyBody }),
    ))) },
    { weight: 1, arbitrary: fc.tuple(anyMethod, randomPath, anyBody) },
  );
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 6, arbitrary: fc.array(queryPart(pools), { minLength: 1, maxLength: 4 }).map((parts) => `?${parts.join('&')}`) },
  );
  return fc.record({
    target: fc.tuple(target, query).map(([[method, path, body], q]) => ({ method, path: path + q, body })),
    accept: acceptHeader,
    ifMatch: fc.option(conditionalValue, { nil: undefined, freq: 6 }),
    ifNoneMatch: fc.option(conditionalValue, { nil: undefined, freq: 6 }),
    auth: fc.constantFrom('none', 'owner', 'owner', 'member', 'outsider', 'none') as fc.Arbitrary<FuzzRequest['auth']>,
    authForm: fc.constantFrom('bearer', 'bearer', 'bearer', 'lowercase', 'cookie', 'cookie-with-origin') as fc.Arbitrary<FuzzRequest['authForm']>,
    badAuthorization: fc.option(garbageAuthorization, { nil: undefined, freq: 2 }),
    swapContentType: fc.option(fc.constantFrom('text/plain', 'application/json', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded'), { nil: undefined, freq: 10 }),
    chunked: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
  }).map((r) => {
    const headers: Record<string, string> = {};
    if (r.accept !== undefined) headers['accept'] = r.accept;
    if (r.ifMatch !== undefined) headers['if-match'] = r.ifMatch;
    if (r.ifNoneMatch !== undefined) headers['if-none-match'] = r.ifNoneMatch;
    if (r.badAuthorization !== undefined && r.auth === 'none') headers['authorization'] = r.badAuthorization;
    const { body: content } = r.target;
    const contentType = r.swapContentType ?? content.contentType;
    if (contentType !== undefined && content.body !== undefined) headers['content-type'] = contentType;
    return { method: r.target.method, path: r.target.path, headers, body: content.body, chunked: r.chunked, auth: r.auth, authForm: r.authForm };
  });
}

// Form posts (docs/html.md, forms): every form route, signed in with the cookie and this server's Origin, hostile
// bytes in every field, `_back` and `_method` included, as application/x-www-form-urlencoded or multipart/form-data.

/** Every field a form of this server reads, and the page's own: each one gets hostile values too. */
const FORM_FIELDS = ['login', 'password', 'currentPassword', 'avatar', 'id', 'title', 'members', 'text', 'replyTo', 'lastReadId',
  'userId', 'chatId', 'unreadCount', 'x', 'y', 'width', 'height', '_confirm', '_other'];
const EIGHT_KIB = 8 * 1024;

/** The resource fields each form route reads (docs/html.md, forms rule 3), by what its path ends with. */
function ownFormFields(route: { method: string; pattern: string }): string[] {
  const { method, pattern } = route;
  if (pattern === '/users' && method === 'POST') return ['login', 'password'];
  if (pattern === '/session') return method === 'POST' ? ['login', 'password'] : [];
  if (pattern.startsWith('/users') && method === 'PATCH') return ['login', 'password', 'currentPassword', 'avatar'];
  if (pattern.endsWith('/read')) return ['lastReadId'];
  if (pattern.endsWith('/messages') && method === 'POST') return ['text', 'replyTo'];
  if (pattern.endsWith('/:messageId') && method === 'PATCH') return ['text'];
  if (pattern === '/chats' || (pattern.endsWith('/:chatId') && method === 'PATCH')) return ['title', 'members'];
  if (pattern.endsWith('/avatar')) return ['avatar', 'x', 'y', 'width', 'height'];
  return [];
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/**
 * The bytes of a hostile field value: characters above U+00FF, C0 and C1 controls, CR/LF and NUL, lone surrogates and
 * other invalid UTF-8 as raw bytes, Latin-1 bytes, 8 KiB runs. A form's bytes are UTF-8 (WHATWG URL §5.1), so a lone
 * surrogate can only travel as bytes (ED A0 80, CESU-8), which the server must decode as U+FFFD.
 */
const hostileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(utf8),
  fc.constantFrom('\u3000', '\u2603', '\u{1F600}', '\u202E', '\u00FF', '\u0100', '\uFEFF', '\uFFFF', '\u0130', '\u2028').map(utf8),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f)), { minLength: 1, maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
  fc.array(fc.integer({ min: 0x80, max: 0x9f }), { minLength: 1, maxLength: 4 }).map((points) => utf8(String.fromCodePoint(...points))),
  fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('\r\n', '\r', '\n', '\0', 'a\r\nSet-Cookie: session=stolen', '\r\n\r\n<p>body</p>', '\t', '\u0085').map(utf8),
  fc.constantFrom([0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], [0xff, 0xfe], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe3, 0x80])
    .map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('x', '\u3000', '\0', '%', '/', '\r\n', '\u{1F600}').map((unit) => utf8(unit.repeat(Math.ceil(EIGHT_KIB / utf8(unit).length)))),
);

/** A field value: hostile, plain, empty, or an id that exists (so some writes succeed and answer their 303). */
function formValue(pools: IdPools): fc.Arbitrary<Buffer> {
  const known = Object.values(pools).flat();
  const plain = fc.constantFrom('', '', 'hello', 'a long enough password', 'ann.lee', '0', '1', '-1', 'true', 'null');
  const pieces = fc.array(fc.oneof(hostileBytes, plain.map(utf8)), { minLength: 1, maxLength: 3 }).map((parts) => Buffer.concat(parts));
  return fc.oneof(
    { weight: 4, arbitrary: pieces },
    { weight: 3, arbitrary: plain.map(utf8) },
    { weight: known.length > 0 ? 3 : 0, arbitrary: known.length > 0 ? fc.constantFrom(...known).map(utf8) : fc.constant(Buffer.alloc(0)) },
  );
}

/** `_back`: mostly a path of this server with hostile bytes in it (what becomes a Location), else another host or garbage. */
function backValue(pools: IdPools): fc.Arbitrary<Buffer> {
  const chatIds = pools['chatId'] ?? ['x'];
  const page = fc.constantFrom('/', '/chats', ...chatIds.map((id) => `/chats/${id}/messages`), ...chatIds.map((id) => `/chats/${id}/messages?before=01J`));
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(page, fc.array(hostileBytes, { minLength: 1, maxLength: 2 })).map(([path, parts]) => Buffer.concat([utf8(path), ...parts])) },
    { weight: 2, arbitrary: page.map(utf8) },
    { weight: 1, arbitrary: fc.constantFrom('//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '\\\\evil', '/%2F/evil', '')
      .map(utf8) },
    { weight: 1, arbitrary: hostileBytes },
  );
}

/** `_method`: the method the route stands for in any case, or something else (refused with 400 naming `_method`). */
function methodValue(method: string): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(method, method.toLowerCase(), `${method[0]}${method.slice(1).toLowerCase()}`).map(utf8) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'OPTIONS', '', 'PUT\0', 'DELETE\r\n').map(utf8) },
    { weight: 1, arbitrary: hostileBytes },
  );
}

const UNRESERVED = /[A-Za-z0-9*\-._]/;

/** How one byte goes on the wire, `percent` or `raw`: worked out once per byte, since the 8 KiB runs made encoding slow. */
function encodeFormByte(byte: number, raw: boolean): number[] {
  const char = String.fromCharCode(byte);
  if (UNRESERVED.test(char)) return [byte];
  if (byte === 0x20) return [0x2b];
  if (raw && !'&=+%#'.includes(char)) return [byte];
  return [...Buffer.from(`%${byte.toString(16).toUpperCase().padStart(2, '0')}`)];
}

const FORM_BYTES = { percent: Array.from({ length: 256 }, (_, byte) => encodeFormByte(byte, false)), raw: Array.from({ length: 256 }, (_, byte) => encodeFormByte(byte, true)) };

/**
 * A value on the wire: `percent` as a browser sends it (every other byte as %XX, space as +), or `raw` with only the
 * separators escaped, so controls and invalid UTF-8 reach the server's decoder as they are.
 */
function encodeFormBytes(bytes: Buffer, raw: boolean): Buffer {
  const table = raw ? FORM_BYTES.raw : FORM_BYTES.percent;
  const out: number[] = [];
  for (const byte of bytes) out.push(...table[byte]!);
  return Buffer.from(out);
}

interface FormField {
  name: Buffer;
  value: Buffer;
}

function urlencodedBody(fields: readonly FormField[], raw: boolean): Buffer {
  return Buffer.concat(fields.flatMap((field, index) => [
    ...(index > 0 ? [Buffer.from('&')] : []), encodeFormBytes(field.name, raw), Buffer.from('='), encodeFormBytes(field.value, raw),
  ]));
}

/** RFC 7578: each field a part; a hostile name or filename goes into the part's header bytes as it is. */
function multipartFormBody(fields: readonly FormField[], filename: Buffer | undefined, boundary: string): Buffer {
  const pieces: Buffer[] = [];
  for (const field of fields) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), field.name, Buffer.from('"'));
    if (filename !== undefined && field.name.toString() === 'avatar') pieces.push(Buffer.from('; filename="'), filename, Buffer.from('"\r\nContent-Type: image/png'));
    pieces.push(Buffer.from('\r\n\r\n'), field.value, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/**
 * One signed-in, same-origin form post to one of `routes` (the form routes, `METHOD pattern`): POST to the route's
 * path, `_method` naming its method, resource fields, `_back`, all with hostile values; the avatar upload also as a
 * whole valid multipart form, so it succeeds too.
 */
export function formPostArbitrary(routes: readonly { method: string; pattern: string }[], pools: IdPools): fc.Arbitrary<FuzzRequest> {
  const value = formValue(pools);
  const anyName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FORM_FIELDS).map(utf8) }, { weight: 1, arbitrary: hostileBytes });
  /** Mostly the route's own fields (none, for a delete), so writes get past the unknown-field check and succeed. */
  const fieldsOf = (route: { method: string; pattern: string }): fc.Arbitrary<FormField[]> => {
    const own = ownFormFields(route);
    const ownName = own.length > 0 ? fc.constantFrom(...own).map(utf8) : anyName;
    return fc.oneof(
      { weight: 3, arbitrary: fc.uniqueArray(fc.constantFrom(...own, '_confirm'), { maxLength: own.length + 1 }).chain((names) =>
        fc.tuple(...names.map(() => value)).map((values) => names.map((fieldName, index) => ({ name: utf8(fieldName), value: values[index]! })))) },
      { weight: 2, arbitrary: fc.array(fc.record({ name: fc.oneof({ weight: 3, arbitrary: ownName }, { weight: 1, arbitrary: anyName }), value }), { maxLength: 5 }) },
    );
  };
  const png = makePng(8, 8, 3);
  const validUpload: FormField[] = [
    { name: utf8('avatar'), value: png }, ...['x', 'y', 'width', 'height'].map((field, index) => ({ name: utf8(field), value: utf8(index < 2 ? '0' : '8') })),
  ];
  return fc.oneof(...routes.map((route) => fc.record({
    path: pathFromPattern(route.pattern, pools),
    fields: fieldsOf(route),
    method: fc.option(methodValue(route.method), { nil: undefined, freq: route.method === 'POST' ? 1 : 10 }),
    methodTwice: fc.integer({ min: 0, max: 19 }).map((draw) => draw === 0),
    back: fc.option(backValue(pools), { nil: undefined, freq: 4 }),
    multipart: fc.integer({ min: 0, max: 3 }).map((draw) => draw === 0 || (route.pattern.endsWith('/avatar') && draw === 1)),
    upload: fc.boolean(),
    filename: fc.oneof(fc.constant(utf8('a.png')), hostileBytes),
    raw: fc.boolean(),
    accept: fc.constantFrom(undefined, 'text/html', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json', 'application/xml'),
    auth: fc.constantFrom('owner', 'owner', 'member', 'outsider') as fc.Arbitrary<FuzzRequest['auth']>,
  }).map((r): FuzzRequest => {
    const all: FormField[] = [...(r.multipart && r.upload && route.pattern.endsWith('/avatar') ? validUpload : []), ...r.fields];
    if (r.method !== undefined) all.unshift({ name: utf8('_method'), value: r.method });
    if (r.method !== undefined && r.methodTwice) all.push({ name: utf8('_method'), value: r.method });
    if (r.back !== undefined) all.push({ name: utf8('_back'), value: r.back });
    const boundary = 'formFuzzBoundary1q2w3e';
    const headers: Record<string, string> = {
      'content-type': r.multipart ? `multipart/form-data; boundary=${boundary}` : 'application/x-www-form-urlencoded',
    };
    if (r.accept !== undefined) headers['accept'] = r.accept;
    const body = r.multipart ? multipartFormBody(all, r.filename, boundary) : urlencodedBody(all, r.raw);
    return { method: 'POST', path: r.path, headers, body, chunked: false, auth: r.auth, authForm: 'cookie-with-origin', form: { standsFor: route.method } };
  })));
}
