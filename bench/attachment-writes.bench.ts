// Levers for the upload of a 25 MiB attachment on SQLite (issue #33's open goal), A/B on the storage alone: the
// time of AttachmentStore.appendChunks for a whole file as the upload writes it (4 chunks of 256 KiB to a commit),
// against the same with one setting changed, and against writing the bytes to a file (what the bare peer does).
//   node --import tsx bench/attachment-writes.bench.ts [rounds]
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Db } from '../src/storage/sqlite/database.ts';
import { AttachmentStore } from '../src/storage/sqlite/attachment-store.ts';

const MIB = 1024 * 1024;
const FILE_BYTES = 25 * MIB;

interface Lever {
  name: string;
  chunkBytes: number;
  chunksPerCommit: number;
  /** Run on the connection after opening. */
  pragmas?: string[];
  /** After the file: a checkpoint on the loop, counted in (for a lever that moves it out of the upload). */
  checkpointAfter?: boolean;
}

const LEVERS: readonly Lever[] = [
  { name: 'as shipped: 256 KiB chunks, 4 to a commit, synchronous=FULL, autocheckpoint 1000 pages', chunkBytes: 256 * 1024, chunksPerCommit: 4 },
  { name: 'no checkpoint during the upload (wal_autocheckpoint=0), none after', chunkBytes: 256 * 1024, chunksPerCommit: 4, pragmas: ['wal_autocheckpoint = 0'] },
  { name: 'no checkpoint during the upload, one TRUNCATE checkpoint after (counted)', chunkBytes: 256 * 1024, chunksPerCommit: 4, pragmas: ['wal_autocheckpoint = 0'], checkpointAfter: true },
  { name: 'synchronous=NORMAL', chunkBytes: 256 * 1024, chunksPerCommit: 4, pragmas: ['synchronous = NORMAL'] },
  { name: '1 MiB chunks, 1 to a commit', chunkBytes: MIB, chunksPerCommit: 1 },
  { name: '64 KiB chunks, 16 to a commit', chunkBytes: 64 * 1024, chunksPerCommit: 16 },
  { name: 'page cache 64 MiB (cache_size)', chunkBytes: 256 * 1024, chunksPerCommit: 4, pragmas: ['cache_size = -65536'] },
];

function timeStore(dir: string, lever: Lever, round: number): number {
  const path = join(dir, `store-${round}.db`);
  const db: Db = openDatabase(path);
  try {
    for (const pragma of lever.pragmas ?? []) db.pragma(pragma);
    const store = new AttachmentStore(db);
    const id = `blob${round}`;
    store.startContent(id, lever.chunkBytes, Date.now());
    const chunk = Buffer.alloc(lever.chunkBytes, round % 251);
    const started = performance.now();
    let n = 0;
    for (let written = 0; written < FILE_BYTES; written += lever.chunkBytes * lever.chunksPerCommit) {
      const batch = Array.from({ length: lever.chunksPerCommit }, (_, i) => {
        const copy = Buffer.from(chunk);
        copy.writeUInt32BE(n + i, 0);
        return copy;
      });
      store.appendChunks(id, n, batch);
      n += batch.length;
    }
    if (lever.checkpointAfter) db.pragma('wal_checkpoint(TRUNCATE)');
    return performance.now() - started;
  } finally {
    db.close();
    rmSync(path, { force: true });
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }
}

function timeFile(dir: string, round: number): number {
  const path = join(dir, `file-${round}.bin`);
  const piece = Buffer.alloc(64 * 1024, round % 251);
  const started = performance.now();
  const fd = openSync(path, 'w');
  for (let written = 0; written < FILE_BYTES; written += piece.length) writeSync(fd, piece);
  closeSync(fd);
  const ms = performance.now() - started;
  rmSync(path, { force: true });
  return ms;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function runAttachmentWritesBench(rounds = 5): { name: string; ms: number[] }[] {
  const dir = mkdtempSync(join(tmpdir(), 'bench-attachment-writes-'));
  try {
    const rows = [{ name: 'a file (64 KiB writes, no sync): the bare peer\'s work', ms: [] as number[] }, ...LEVERS.map((lever) => ({ name: lever.name, ms: [] as number[] }))];
    // Alternating: each round runs every lever once, so the machine's load falls on all of them alike.
    for (let round = 0; round < rounds; round += 1) {
      rows[0]!.ms.push(timeFile(dir, round));
      LEVERS.forEach((lever, index) => rows[index + 1]!.ms.push(timeStore(dir, lever, round)));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatAttachmentWritesBench(rows: { name: string; ms: number[] }[]): string {
  const base = median(rows[1]!.ms);
  return [
    '| writing 25 MiB | median ms (each round) | MiB/s | against as shipped |',
    '|---|---:|---:|---:|',
    ...rows.map((row) => `| ${row.name} | ${median(row.ms).toFixed(0)} (${row.ms.map((ms) => ms.toFixed(0)).join(', ')}) | ${(25 / (median(row.ms) / 1000)).toFixed(0)} | ${(base / median(row.ms)).toFixed(2)}x |`),
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatAttachmentWritesBench(runAttachmentWritesBench(Number(process.argv[2] ?? 5))));
}
