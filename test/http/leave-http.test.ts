// An event stream leaves node:http once its head is out (src/http/leave-http.ts): the socket alone is kept, the
// request, the response and the parser are let go, and the writer frames the chunks itself, byte for byte as Node
// did. Over real sockets against a bare node:http server, so what is asserted is what a client reads.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openEventStream, type SseWriter } from '../../src/http/sse.ts';
import { lazyChunkBytes } from '../../src/events/sse-frame.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Opened {
  writer: SseWriter;
  req: WeakRef<IncomingMessage>;
  socket: Socket;
}

/** A server whose every request is an event stream; `opened` yields each stream's writer once it has left node:http. */
async function streamServer(t: TestContext): Promise<{ server: Server; port: number; next(): Promise<Opened> }> {
  const waiting: ((opened: Opened) => void)[] = [];
  const server = createServer((req, res) => {
    const writer = openEventStream(req, res, {})!;
    const socket = req.socket;
    const opened = { writer, req: new WeakRef(req), socket };
    // The stream leaves a turn after its head (setImmediate); one more turn and it has.
    setImmediate(() => setImmediate(() => waiting.shift()?.(opened)));
  });
  await listen(t, server);
  return { server, port: (server.address() as AddressInfo).port, next: () => new Promise((resolve) => waiting.push(resolve)) };
}

/** Listens; when the test ends, cuts what is still open (a stream that left node:http is not the server's to close) and closes. */
async function listen(t: TestContext, server: Server): Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  }));
}

/** A raw client: sends `request`, collects what comes back until the server closes. */
function rawClient(port: number, request: string): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1', () => socket.write(request));
  let text = '';
  socket.on('data', (data: Buffer) => { text += data.toString('utf8'); });
  const closed = once(socket, 'close').then(() => undefined);
  return { socket, received: () => text, closed };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const GET = 'GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n';
const event = (text: string) => ({ frameText: text, chunkBytes: lazyChunkBytes(text) });

test('once left, the socket has no parser and none of node:http\'s listeners, and the request is let go', async (t) => {
  const { port, next } = await streamServer(t);
  const client = rawClient(port, GET);
  const { socket, req } = await next();
  assert.equal((socket as unknown as { parser: unknown }).parser, null);
  for (const name of ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause']) {
    const names = socket.listeners(name).map((listener) => listener.name);
    assert.ok(!names.some((found) => /^bound socketOn|^socketOn|^onSocket|^onServerResponse/.test(found)), `${name}: ${names.join(', ')}`);
  }
  // What held it (the connection's state, the parser) is gone: the request is collected.
  // A WeakRef keeps its target for the rest of the turn it was read in: collect in a turn of its own, then read.
  for (let round = 0; round < 10; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    if (req.deref() === undefined) break;
  }
  assert.equal(req.deref(), undefined, 'the request is still reachable: node:http kept a hold on the stream');
});

test('the bytes are Node\'s chunked framing, before and after leaving, and end with the last chunk', async (t) => {
  const { port, next } = await streamServer(t);
  const client = rawClient(port, GET);
  const { writer } = await next();
  writer.deliver([event('id: 1\nevent: a\ndata: {"text":"héllo"}\n\n')]);
  writer.deliver([event('id: 2\ndata: x\n\n'), event('id: 3\ndata: y\n\n')]);
  writer.ready(3);
  writer.end();
  await client.closed;
  const text = client.received();
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(text, /\r\nTransfer-Encoding: chunked\r\n/);
  assert.match(text, /\r\nConnection: close\r\n/);
  const frames = ['retry: 3000\n\n', 'id: 1\nevent: a\ndata: {"text":"héllo"}\n\n', 'id: 2\ndata: x\n\nid: 3\ndata: y\n\n', 'id: 3\nevent: ready\ndata: {"lastEventId":"3"}\n\n'];
  assert.equal(body, `${frames.map((frame) => `${Buffer.byteLength(frame).toString(16)}\r\n${frame}\r\n`).join('')}0\r\n\r\n`);
});

test('an HTTP/1.0 client gets the frames as they are, ended by the connection', async (t) => {
  const { port, next } = await streamServer(t);
  const client = rawClient(port, 'GET /events HTTP/1.0\r\nHost: x\r\n\r\n');
  const { writer } = await next();
  writer.deliver([event('id: 1\ndata: x\n\n')]);
  writer.end();
  await client.closed;
  const text = client.received();
  assert.doesNotMatch(text, /Transfer-Encoding/);
  assert.equal(text.slice(text.indexOf('\r\n\r\n') + 4), 'retry: 3000\n\nid: 1\ndata: x\n\n');
});

test('a client that closes its side ends the stream; one that sends more than a little after its request is cut off', async (t) => {
  const { port, next } = await streamServer(t);
  const leaving = rawClient(port, GET);
  const first = await next();
  let detached = false;
  first.writer.onClose(() => { detached = true; });
  leaving.socket.end();
  await leaving.closed;
  await until(() => detached);
  assert.equal(first.writer.isClosed, true);

  const talking = rawClient(port, GET);
  const second = await next();
  talking.socket.write('x'.repeat(4096));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(second.writer.isClosed, false, 'a few bytes are read and dropped');
  talking.socket.write('x'.repeat(16 * 1024));
  await talking.closed;
  assert.equal(second.writer.isClosed, true);
});

test('a stream pipelined behind an answer not yet written stays with node:http, and its bytes still come in order', async (t) => {
  let release: (() => void) | undefined;
  let writer: SseWriter | undefined;
  const server = createServer((req, res) => {
    if (req.url === '/slow') {
      release = () => res.end('slow');
      return;
    }
    writer = openEventStream(req, res, {});
  });
  await listen(t, server);
  const client = rawClient((server.address() as AddressInfo).port, `GET /slow HTTP/1.1\r\nHost: x\r\n\r\n${GET}`);
  await until(() => writer !== undefined && release !== undefined);
  await new Promise((resolve) => setImmediate(resolve));
  writer!.deliver([event('id: 1\ndata: x\n\n')]);
  release!();
  await until(() => client.received().includes('id: 1'));
  writer!.end();
  await client.closed;
  const text = client.received();
  const second = text.slice(text.indexOf('HTTP/1.1 200 OK', 1));
  assert.ok(text.indexOf('slow') < text.indexOf('retry: 3000'), 'the first answer first');
  assert.equal(second.slice(second.indexOf('\r\n\r\n') + 4), 'd\r\nretry: 3000\n\n\r\nf\r\nid: 1\ndata: x\n\n\r\n0\r\n\r\n');
});
