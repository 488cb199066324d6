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
    return json(fc.record({ login: fc.stringMatching(/^[a-z0-9._-]{3,12}$/), password: fc.constantFrom('long enough pw', 'short'), avatar: fc.oneof(id('avatarId'), fc.constant(null)) }, { requiredKeys: [] }));
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
