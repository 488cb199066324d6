// docs/protocol.md §15.3: a file of --max-attachment-bytes goes into the database and out again without the server's
// memory growing by the file: its resident set, read from /proc/<pid>/status of a real server process, grows by less
// than 10 MiB at its peak during the upload and during the download.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from '../fault/server-child.ts';
import { createTestDatabase } from '../postgres/test-database.ts';
import { call } from './client.ts';
import { BOUNDARY, filePart, multipart, MULTIPART } from './attachment-fixtures.ts';

const MIB = 1024 * 1024;
const FILE_BYTES = 25 * MIB;
const PIECE = 64 * 1024;

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

/** Resets the peak (VmHWM) to the current resident set (proc(5), clear_refs: "5"). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The same pseudo-random 64 KiB piece over and over, with its index in front, so the file is neither compressible nor stored in memory by the test. */
function pieceAt(index: number): Buffer {
  const piece = Buffer.alloc(PIECE, index % 251);
  piece.writeUInt32BE(index, 0);
  return piece;
}

/** Streams a multipart post of one FILE_BYTES file, written piece by piece as the socket takes it; answers status and body. */
function streamUpload(url: string, token: string, path: string): Promise<{ status: number; body: any; sha256: string }> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST', agent: false,
      headers: { 'authorization': `Bearer ${token}`, 'content-type': MULTIPART, 'content-length': String(head.length + FILE_BYTES + tail.length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), sha256: hash.digest('hex') }));
    });
    req.on('error', reject);
    let index = 0;
    const writeMore = (): void => {
      while (index < FILE_BYTES / PIECE) {
        const piece = pieceAt(index++);
        hash.update(piece);
        if (!req.write(piece)) return void req.once('drain', writeMore);
      }
      req.end(tail);
    };
    req.write(head);
    writeMore();
  });
}

/** Reads a download to its end without keeping it: its length and sha256. */
function streamDownload(url: string, token: string, path: string): Promise<{ status: number; length: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let length = 0;
    request(`${url}${path}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.on('data', (chunk: Buffer) => {
        length += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode!, length, sha256: hash.digest('hex') }));
    }).on('error', reject).end();
  });
}

test('uploading and downloading a 25 MiB file grows the server\'s resident set by less than 10 MiB', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-attachment-memory-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const database = process.env['TEST_DATABASE_URL'] ? await createTestDatabase() : undefined;
  const server = await spawnServer(['--db', database?.url ?? join(dir, 'chat.db'), '--quiet', '--max-attachment-bytes', String(FILE_BYTES)]);
  t.after(async () => {
    await server.kill('SIGTERM');
    await database?.drop();
  });
  const pid = server.child.pid!;
  const user = { login: 'memory', password: 'correct horse battery' };
  assert.equal((await call(server.url, 'POST', '/users', { json: user })).status, 201);
  const { token } = (await call(server.url, 'POST', '/session', { json: user })).body;
  const chat = (await call(server.url, 'POST', '/chats', { token, json: { data: { title: 'Big' } } })).body.data;
  // Warm up every code path (modules loaded and compiled, the database's caches) with smaller files first, by both
  // forms, so what is measured is the file.
  for (let round = 0; round < 2; round += 1) {
    const warm = await call(server.url, 'POST', `/chats/${chat.id}/attachments`, { token, json: { data: { name: 'warm.bin', content: Buffer.alloc(MIB, round + 1).toString('base64') } } });
    assert.equal((await streamDownload(server.url, token, warm.body.data.href)).length, MIB);
    const body = multipart([filePart('warm.bin', Buffer.alloc(3 * MIB, round + 3))]);
    const posted = await call(server.url, 'POST', `/chats/${chat.id}/messages`, { token, headers: { 'content-type': MULTIPART }, body });
    assert.equal(posted.status, 201, posted.text);
    assert.equal((await streamDownload(server.url, token, posted.body.data.attachments[0].href)).length, 3 * MIB);
  }

  const beforeUpload = statusField(pid, 'VmRSS');
  resetPeak(pid);
  const uploaded = await streamUpload(server.url, token, `/chats/${chat.id}/messages`);
  const uploadGrowth = statusField(pid, 'VmHWM') - beforeUpload;
  assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
  const attachment = uploaded.body.data.attachments[0];
  assert.equal(attachment.size, FILE_BYTES);
  assert.equal(attachment.sha256, uploaded.sha256);

  const beforeDownload = statusField(pid, 'VmRSS');
  resetPeak(pid);
  const downloaded = await streamDownload(server.url, token, attachment.href);
  const downloadGrowth = statusField(pid, 'VmHWM') - beforeDownload;
  assert.equal(downloaded.status, 200);
  assert.equal(downloaded.length, FILE_BYTES);
  assert.equal(downloaded.sha256, uploaded.sha256);
  t.diagnostic(`peak RSS growth: upload ${(uploadGrowth / MIB).toFixed(1)} MiB, download ${(downloadGrowth / MIB).toFixed(1)} MiB`);
  assert.ok(uploadGrowth < 10 * MIB, `upload grew the RSS by ${(uploadGrowth / MIB).toFixed(1)} MiB`);
  assert.ok(downloadGrowth < 10 * MIB, `download grew the RSS by ${(downloadGrowth / MIB).toFixed(1)} MiB`);
});
