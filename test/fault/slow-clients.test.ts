// Slow clients (slowloris): connections that trickle their headers are closed by the header timeout,
// while /health keeps answering. The server runs in its own process, so 500 sockets on each side fit any ulimit.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { spawnServer } from './server-child.ts';

const SLOW_CONNECTIONS = 500;
const HEADERS_TIMEOUT_SECONDS = 1;
/** One header byte per socket this often: far slower than any real client, faster than the timeout. */
const TRICKLE_EVERY_MS = 200;

function getHealth(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Trickler {
  socket: Socket;
  connected: Promise<void>;
  closed: Promise<{ answer: string }>;
}

function openTrickler(port: number): Trickler {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => { answer += chunk; });
  // The server may reset instead of closing politely; either way the socket ends in 'close'.
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => {
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    timer = setInterval(() => {
      if (socket.writable) socket.write('a');
    }, TRICKLE_EVERY_MS);
    resolve();
  }));
  const closed = new Promise<{ answer: string }>((resolve) => socket.once('close', () => {
    clearInterval(timer);
    resolve({ answer });
  }));
  return { socket, connected, closed };
}

test(`${SLOW_CONNECTIONS} connections trickling headers are closed by the header timeout while /health answers`, async (t) => {
  const server = await spawnServer(['--db', ':memory:', '--quiet', '--headers-timeout', String(HEADERS_TIMEOUT_SECONDS)]);
  t.after(() => server.kill('SIGKILL'));
  const port = Number(new URL(server.url).port);

  const tricklers = Array.from({ length: SLOW_CONNECTIONS }, () => openTrickler(port));
  await Promise.all(tricklers.map((trickler) => trickler.connected));
  let open = SLOW_CONNECTIONS;
  const allClosed = Promise.all(tricklers.map((trickler) => trickler.closed.then((result) => {
    open -= 1;
    return result;
  })));

  // Ask /health again and again for as long as slow connections remain open; the first call starts with all open.
  const healthStatuses: number[] = [];
  const openAtHealthCalls: number[] = [];
  let finished = false;
  void allClosed.then(() => { finished = true; });
  while (!finished) {
    openAtHealthCalls.push(open);
    healthStatuses.push(await getHealth(server.url));
  }
  const results = await allClosed;

  assert.equal(openAtHealthCalls[0], SLOW_CONNECTIONS, 'the first /health call was made with every slow connection open');
  assert.ok(healthStatuses.length >= 1);
  assert.deepEqual(healthStatuses, healthStatuses.map(() => 200), 'every /health answered 200 during the trickle');
  assert.equal(results.length, SLOW_CONNECTIONS, 'every slow connection was closed by the server');
  assert.ok(tricklers.every((trickler) => trickler.socket.destroyed));
  const timedOut = results.filter(({ answer }) => answer.startsWith('HTTP/1.1 408')).length;
  t.diagnostic(`${results.length} slow connections closed (${timedOut} with a 408); ${healthStatuses.length} /health calls answered 200 meanwhile`);
  // Once they are gone the server is as responsive as before.
  assert.equal(await getHealth(server.url), 200);
});
