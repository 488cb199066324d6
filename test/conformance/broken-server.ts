// A deliberately broken server for the conformance kit's own test: a thin node:http proxy in front of the real server
// that gets a handful of rules of docs/protocol.md wrong, each on purpose and narrowly, so that exactly the checks of
// those rules fail (test/conformance/broken-server.test.ts).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from '../../src/http/http-error.ts';
import { sendSocketProblem } from '../../src/http/send.ts';

/** The rules this server breaks, by the name the test uses. */
export type Breakage = 'found-not-404' | 'user-without-etag' | 'resume-loses-one' | 'bad-json-500';

export interface BrokenServer {
  url: string;
  close(): Promise<void>;
}

const SINGLE_CHAT = /^\/chats\/[^/]+$/;
const SINGLE_USER = /^\/users\/[^/]+$/;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isUnparseable(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return false;
  } catch {
    return true;
  }
}

/** §9.3 broken: a resumed stream loses the first event of its replay (the first frame with an id that is not `ready`). */
function relayLosingOne(upstream: IncomingMessage, res: ServerResponse): void {
  let buffer = '';
  let dropped = false;
  upstream.setEncoding('utf8');
  upstream.on('data', (chunk: string) => {
    buffer += chunk;
    const frames = buffer.split('\n\n');
    buffer = frames.pop()!;
    for (const frame of frames) {
      const isEvent = /^id: /m.test(frame) && !/^event: ready$/m.test(frame);
      if (isEvent && !dropped) {
        dropped = true;
        continue;
      }
      res.write(`${frame}\n\n`);
    }
  });
  upstream.on('end', () => res.end(buffer));
  res.on('close', () => upstream.destroy());
}

async function handle(req: IncomingMessage, res: ServerResponse, target: URL, breaks: ReadonlySet<Breakage>): Promise<void> {
  const body = await readBody(req);
  const path = (req.url ?? '/').split('?')[0]!;
  // §7.2 broken: an unparseable JSON body to POST /chats is a 500 instead of 400 ERR_BAD_JSON.
  if (breaks.has('bad-json-500') && req.method === 'POST' && path === '/chats' && body.length > 0 && body.length < 65_536 && isUnparseable(body)) {
    res.writeHead(500, { 'Content-Type': 'application/problem+json' }).end('{"title":"Internal Server Error","status":500}');
    return;
  }
  // Raw headers, so that what the real server refuses (two Host headers) reaches it as sent; the first Host is ours.
  const headers = [...req.rawHeaders];
  headers[headers.findIndex((name, index) => index % 2 === 0 && name.toLowerCase() === 'host') + 1] = target.host;
  const upstreamRequest = request(new URL(req.url ?? '/', target), { method: req.method, headers, agent: false }, (upstream) => {
    const outHeaders = { ...upstream.headers };
    // §7.7 broken: a user comes without its ETag.
    if (breaks.has('user-without-etag') && SINGLE_USER.test(path)) delete outHeaders['etag'];
    // §4.1 broken: a chat that is not there (or hidden) answers 200 instead of 404.
    if (breaks.has('found-not-404') && req.method === 'GET' && SINGLE_CHAT.test(path) && upstream.statusCode === 404) {
      upstream.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":null}');
      return;
    }
    res.writeHead(upstream.statusCode!, outHeaders);
    const resumed = req.headers['last-event-id'] !== undefined && String(upstream.headers['content-type']).startsWith('text/event-stream');
    if (breaks.has('resume-loses-one') && resumed) relayLosingOne(upstream, res);
    else upstream.pipe(res);
  });
  upstreamRequest.on('error', () => res.destroy());
  res.on('close', () => upstreamRequest.destroy());
  upstreamRequest.end(body);
}

/** Starts the proxy on a free port in front of `upstreamUrl`, breaking the rules named. */
export async function startBrokenServer(upstreamUrl: string, breaks: readonly Breakage[]): Promise<BrokenServer> {
  const target = new URL(upstreamUrl);
  const breaking = new Set(breaks);
  const server: Server = createServer((req, res) => void handle(req, res, target, breaking).catch(() => res.destroy()));
  // What Node's parser refuses, and CONNECT, are answered as the real server answers them (src/index.ts): not broken.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => sendSocketProblem(socket, error));
  server.on('connect', (_req, socket) => sendSocketProblem(socket, new HttpError('ERR_METHOD_NOT_ALLOWED', 'CONNECT is not supported', {
    headers: { Allow: 'OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE' },
  })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
