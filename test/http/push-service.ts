// A push service for the tests (RFC 8030), plain node:http on loopback: it checks every request as a real one would
// (the VAPID JWT verified with node:crypto from the k= key alone, aud, exp, sub; RFC 8030's headers) and decrypts
// the body with the subscription's private key through the npm package http_ece, an implementation independent of ours.
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';

export interface PushReceived {
  /** Which subscription: the last segment of its endpoint. */
  name: string;
  headers: IncomingHttpHeaders;
  /** The decrypted payload, parsed; undefined when something failed (see failures). */
  notice: any;
  claims: any;
}

export interface PushReply {
  status: number;
  headers?: Record<string, string>;
}

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushService {
  origin: string;
  received: PushReceived[];
  /** Every check that failed, as text: a test asserts it stays empty. */
  failures: string[];
  /** The VAPID public key (base64url) every JWT must be signed with, and the subject it must name. */
  expect: { publicKey?: string; subject?: string };
  /** A new subscription at this service, as a browser's PushSubscription.toJSON() gives it. */
  subscribe(name: string): PushSubscriptionJson;
  /** What the next requests are answered (in order); 201 once it runs out. */
  replies: PushReply[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  server: Server;
}

function fail(service: PushService, name: string, what: string): void {
  service.failures.push(`${name}: ${what}`);
}

/** RFC 8292 §3.1: `vapid t=<JWT>, k=<key>`; the JWT checked with the key it names, by node:crypto. */
function checkVapid(service: PushService, name: string, headers: IncomingHttpHeaders, endpointOrigin: string): any {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(String(headers.authorization ?? ''));
  if (!match) return fail(service, name, `Authorization is not vapid t=, k=: ${String(headers.authorization)}`);
  const [token, k] = [match[1]!, match[2]!];
  if (service.expect.publicKey !== undefined && k !== service.expect.publicKey) fail(service, name, 'k= is not the server\'s key');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return fail(service, name, 'k= is not an uncompressed P-256 point');
  const key = createPublicKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') } });
  const [header, claims, signature] = token.split('.') as [string, string, string];
  if (!verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) fail(service, name, 'the JWT\'s ES256 signature does not verify');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString());
  if (head.alg !== 'ES256') fail(service, name, `alg ${head.alg}`);
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  if (body.aud !== endpointOrigin) fail(service, name, `aud ${body.aud} is not ${endpointOrigin}`);
  if (!(typeof body.exp === 'number' && body.exp > now && body.exp <= now + 86_400)) fail(service, name, `exp ${body.exp} is not within 24 h`);
  if (service.expect.subject !== undefined && body.sub !== service.expect.subject) fail(service, name, `sub ${body.sub}`);
  return body;
}

/** RFC 8030 §5: TTL required; Urgency and Topic well-formed when present; the aes128gcm coding. */
function checkHeaders(service: PushService, name: string, headers: IncomingHttpHeaders): void {
  if (!/^[0-9]+$/.test(String(headers.ttl ?? ''))) fail(service, name, `TTL ${headers.ttl}`);
  if (headers.urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(String(headers.urgency))) fail(service, name, `Urgency ${headers.urgency}`);
  if (headers.topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(String(headers.topic))) fail(service, name, `Topic ${headers.topic}`);
  if (headers['content-encoding'] !== 'aes128gcm') fail(service, name, `Content-Encoding ${headers['content-encoding']}`);
}

export async function startPushService(t: TestContext): Promise<PushService> {
  const keys = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const service: PushService = {
    origin: '', received: [], failures: [], expect: {}, replies: [], server: undefined as unknown as Server,
    subscribe(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(name, { ecdh, auth });
      return { endpoint: `${service.origin}/push/${name}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    waitFor: (count, timeoutMs = 10_000) => new Promise((resolve, reject) => {
      if (service.received.length >= count) return resolve();
      const timer = setTimeout(() => reject(new Error(`push service: ${service.received.length} of ${count} pushes arrived`)), timeoutMs);
      waiters.push({ count, resolve: () => { clearTimeout(timer); resolve(); } });
    }),
  };
  service.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const name = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      const got: PushReceived = { name, headers: req.headers, notice: undefined, claims: undefined };
      if (req.method !== 'POST') fail(service, name, `method ${req.method}`);
      got.claims = checkVapid(service, name, req.headers, service.origin);
      checkHeaders(service, name, req.headers);
      const subscription = keys.get(name);
      if (!subscription) fail(service, name, 'no such subscription');
      else {
        try {
          const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth.toString('base64url') }) as Buffer;
          got.notice = JSON.parse(plain.toString('utf8'));
        } catch (error) {
          fail(service, name, `does not decrypt: ${(error as Error).message}`);
        }
      }
      service.received.push(got);
      const reply = service.replies.shift() ?? { status: 201 };
      res.writeHead(reply.status, reply.headers).end();
      for (const waiter of [...waiters]) {
        if (service.received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
  service.origin = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
  t.after(() => {
    service.server.closeAllConnections();
    service.server.close();
  });
  return service;
}
