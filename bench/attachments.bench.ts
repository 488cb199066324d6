// Attachments (docs/protocol.md §15): upload and download throughput of a 25 MiB file against a bare node:http server
// streaming the same bytes to and from a file, and the server's peak RSS growth while it does (goal: ≥ 0.5x, < 10 MiB).
// Alone: `node --import tsx bench/attachments.bench.ts` prints the section.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startChild, type ServerChild } from './server-process.ts';

const MIB = 1024 * 1024;
const FILE_BYTES = 25 * MIB;
const PIECE = 64 * 1024;
const BOUNDARY = 'benchAttachmentBoundary';
const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const BASELINE = new URL('./attachments-baseline.ts', import.meta.url).pathname;

export interface TransferFigures {
  uploadMBps: number;
  downloadMBps: number;
  /** Peak resident set during the transfers, above the resident set before them (/proc VmHWM after clear_refs). */
  uploadRssGrowth: number;
  downloadRssGrowth: number;
}

export interface AttachmentsBenchResult {
  rounds: number;
  ours: TransferFigures;
  baseline: TransferFigures;
}

function rssOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** Runs `transfer` and answers how far the child's resident set rose above where it stood before. */
async function withPeak(pid: number, transfer: () => Promise<void>): Promise<number> {
  const before = rssOf(pid, 'VmRSS');
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  await transfer();
  return rssOf(pid, 'VmHWM') - before;
}

/** The file of a round: 64 KiB pieces numbered by round and index, so no two rounds upload the same bytes. */
function pieceOf(round: number, index: number): Buffer {
  const piece = Buffer.alloc(PIECE, (round * 31 + index) % 251);
  piece.writeUInt32BE(round, 0);
  piece.writeUInt32BE(index, 4);
  return piece;
}

/** POSTs the round's file, multipart or raw, piece by piece as the socket takes it; answers the JSON answer (or null). */
function upload(url: string, headers: Record<string, string>, multipart: boolean, round: number): Promise<any> {
  const head = multipart ? Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f${round}.bin"\r\n\r\n`) : Buffer.alloc(0);
  const tail = multipart ? Buffer.from(`\r\n--${BOUNDARY}--\r\n`) : Buffer.alloc(0);
  const type = multipart ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/octet-stream';
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': type, 'content-length': String(head.length + FILE_BYTES + tail.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`upload answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        else resolve(chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : null);
      });
    });
    req.on('error', reject);
    let index = 0;
    const more = (): void => {
      while (index < FILE_BYTES / PIECE) if (!req.write(pieceOf(round, index++))) return void req.once('drain', more);
      req.end(tail);
    };
    req.write(head);
    more();
  });
}

function download(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let length = 0;
    request(url, { agent: false, headers }, (res) => {
      res.on('data', (chunk: Buffer) => { length += chunk.length; hash.update(chunk); });
      res.on('end', () => (length === FILE_BYTES ? resolve(hash.digest('hex')) : reject(new Error(`download gave ${length} bytes`))));
    }).on('error', reject).end();
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Target {
  child: ServerChild;
  upload(round: number): Promise<string>;
  download(href: string): Promise<string>;
}

async function measureTarget(target: Target, rounds: number): Promise<TransferFigures> {
  const pid = target.child.child.pid!;
  // One round unmeasured: code paths compiled, caches warm.
  await target.download(await target.upload(rounds));
  const ups: number[] = [];
  const downs: number[] = [];
  let uploadRssGrowth = 0;
  let downloadRssGrowth = 0;
  for (let round = 0; round < rounds; round += 1) {
    let href = '';
    let started = performance.now();
    uploadRssGrowth = Math.max(uploadRssGrowth, await withPeak(pid, async () => { href = await target.upload(round); }));
    ups.push(FILE_BYTES / MIB / ((performance.now() - started) / 1000));
    started = performance.now();
    downloadRssGrowth = Math.max(downloadRssGrowth, await withPeak(pid, async () => { await target.download(href); }));
    downs.push(FILE_BYTES / MIB / ((performance.now() - started) / 1000));
  }
  return { uploadMBps: median(ups), downloadMBps: median(downs), uploadRssGrowth, downloadRssGrowth };
}

async function call(url: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
  const response = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return response.json();
}

/** Both servers, one after the other, on the same machine: `rounds` uploads and downloads each, medians. */
export async function runAttachmentsBench(options: { rounds?: number } = {}): Promise<AttachmentsBenchResult> {
  const rounds = options.rounds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'bench-attachments-'));
  try {
    const server = await startChild(CHAT_SERVER, { db: join(dir, 'chat.db'), registration: 'open', maxAttachmentBytes: FILE_BYTES });
    let ours: TransferFigures;
    try {
      const user = { login: 'bench', password: 'correct horse battery' };
      await call(server.url, 'POST', '/users', user);
      const { token } = await call(server.url, 'POST', '/session', user);
      const chat = (await call(server.url, 'POST', '/chats', { data: { title: 'Files' } }, token)).data;
      const auth = { authorization: `Bearer ${token}` };
      ours = await measureTarget({
        child: server,
        upload: async (round) => (await upload(`${server.url}/chats/${chat.id}/messages`, auth, true, round)).data.attachments[0].href,
        download: (href) => download(`${server.url}${href}`, auth),
      }, rounds);
    } finally {
      await server.stop();
    }
    const bare = await startChild(BASELINE, {});
    try {
      const baseline = await measureTarget({ child: bare, upload: async (round) => { await upload(`${bare.url}/file`, {}, false, round); return '/file'; }, download: (href) => download(`${bare.url}${href}`, {}) }, rounds);
      return { rounds, ours, baseline };
    } finally {
      await bare.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatAttachmentsBench(result: AttachmentsBenchResult): string {
  const { ours, baseline } = result;
  const mib = (bytes: number): string => (bytes / MIB).toFixed(1);
  return [
    `One 25 MiB file, ${result.rounds} rounds each (medians), one connection, loopback. Ours: multipart \`POST /chats/{id}/messages\` (parsed, hashed, written in 256 KiB chunks to SQLite with synchronous=FULL) and \`GET {href}\` (read chunk by chunk). Baseline: a bare \`node:http\` server piping the request into a file and the file back (\`bench/attachments-baseline.ts\`). Peak RSS growth: /proc VmHWM after clear_refs, above the RSS before the transfer.`,
    '',
    '| | ours MiB/s | bare node:http MiB/s | ours / bare (goal ≥ 0.5x) | ours peak RSS growth (goal < 10 MiB) | bare peak RSS growth |',
    '|---|---:|---:|---:|---:|---:|',
    `| upload | ${ours.uploadMBps.toFixed(0)} | ${baseline.uploadMBps.toFixed(0)} | **${(ours.uploadMBps / baseline.uploadMBps).toFixed(2)}x** | ${mib(ours.uploadRssGrowth)} MiB | ${mib(baseline.uploadRssGrowth)} MiB |`,
    `| download | ${ours.downloadMBps.toFixed(0)} | ${baseline.downloadMBps.toFixed(0)} | **${(ours.downloadMBps / baseline.downloadMBps).toFixed(2)}x** | ${mib(ours.downloadRssGrowth)} MiB | ${mib(baseline.downloadRssGrowth)} MiB |`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatAttachmentsBench(await runAttachmentsBench())}\n`);
}
