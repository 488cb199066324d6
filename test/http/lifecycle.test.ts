// Lifecycle of the real executable: start on a file database, finish requests in flight on SIGTERM, exit 0;
// and the server's timeouts close connections that trickle their headers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call, withServer } from './client.ts';

async function startExecutable(t: import('node:test').TestContext, signal: 'SIGTERM' | 'SIGINT') {
  const dir = mkdtempSync(join(tmpdir(), 'chat-life-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'data', 'chat.db');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--db', db, '--scrypt-n', '1024', '--quiet', '--registration', 'open'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
  });
  return { child, url, db, signal };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} lets the request in flight finish, closes the database and exits 0`, async (t) => {
    const { child, url, db } = await startExecutable(t, signal);
    assert.ok(existsSync(db), 'the database file is created on first start');
    assert.equal((await call(url, 'GET', '/health')).status, 200);
    const body = JSON.stringify({ login: 'inflight', password: 'long enough pw' });
    // Half a request is on the wire when the signal comes; the rest follows after it.
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${url}/users`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write(body.slice(0, 10), () => {
        child.kill(signal);
        setImmediate(() => req.end(body.slice(10)));
      });
    });
    assert.equal(await answer, 201);
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });
}

test('connections that trickle their headers are closed at the header timeout while /health answers', async (t) => {
  const server = await withServer(t, { headersTimeout: 1, requestTimeout: 2 });
  const sockets = Array.from({ length: 20 }, () => connect(server.port, '127.0.0.1'));
  const closed = sockets.map(async (socket) => {
    socket.on('error', () => {});
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk.toString('latin1'); });
    await once(socket, 'close');
    return answer;
  });
  assert.equal((await call(server, 'GET', '/health')).status, 200);
  const answers = await Promise.all(closed);
  for (const answer of answers) {
    assert.match(answer, /^$|^HTTP\/1\.1 408 /);
    if (answer) assert.match(answer, /"code":"ERR_REQUEST_TIMEOUT"/);
  }
});

test('once the server stops accepting, answers close their kept-alive connections', async (t) => {
  const server = await withServer(t);
  server.app.stopAccepting();
  const res = await call(server, 'GET', '/health');
  assert.equal(res.status, 200);
  assert.equal(res.headers['connection'], 'close');
});
