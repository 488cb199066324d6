// Multipart parser throughput against busboy: one 10 MiB file and 100 small parts, fed in 64 KiB chunks.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import busboy from 'busboy';
import { MultipartParser, type MultipartLimits } from '../src/parsers/multipart.ts';

export interface MultipartBenchRow {
  scenario: string;
  oursMBps: number;
  busboyMBps: number;
  ratio: number;
}

const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const CHUNK_BYTES = 64 * 1024;
const WARMUP = 3;
const ITERATIONS = 9;
// Each timed iteration parses at least this many bytes, so small bodies are timed over many runs.
const BYTES_PER_ITERATION = 10 * 1024 * 1024;
const LIMITS: MultipartLimits = { maxFileBytes: 64 << 20, maxFieldBytes: 1 << 20, maxParts: 1000, maxHeaderBytes: 16 * 1024 };

function buildBody(parts: { name: string; filename?: string; data: Buffer }[]): Buffer[] {
  const pieces = parts.flatMap(({ name, filename, data }) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"`
      + (filename === undefined ? '\r\n\r\n' : `; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`)),
    data,
    Buffer.from('\r\n'),
  ]);
  const body = Buffer.concat([...pieces, Buffer.from(`--${BOUNDARY}--\r\n`)]);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += CHUNK_BYTES) chunks.push(body.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

/** Like busboy, text fields are gathered and decoded to strings; file data is only counted. */
function parseWithOurs(chunks: Buffer[]): Promise<number> {
  let bytes = 0;
  let field: Buffer[] | undefined;
  const parser = new MultipartParser(BOUNDARY, LIMITS, {
    onPartStart: ({ filename }) => { field = filename === undefined ? [] : undefined; },
    onPartData: (data) => {
      if (field === undefined) bytes += data.length;
      else field.push(data);
    },
    onPartEnd: () => { if (field !== undefined) bytes += Buffer.byteLength(Buffer.concat(field).toString()); },
  });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return Promise.resolve(bytes);
}

function parseWithBusboy(chunks: Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const parser = busboy({ headers: { 'content-type': CONTENT_TYPE }, limits: { fieldSize: Infinity } });
    parser.on('field', (_name, value) => { bytes += Buffer.byteLength(value); });
    parser.on('file', (_name, stream) => stream.on('data', (data: Buffer) => { bytes += data.length; }));
    parser.on('close', () => resolve(bytes));
    parser.on('error', reject);
    for (const chunk of chunks) parser.write(chunk);
    parser.end();
  });
}

/** Seconds for one iteration: the body parsed `repeat` times. */
async function time(parse: (chunks: Buffer[]) => Promise<number>, chunks: Buffer[], repeat: number): Promise<number> {
  const start = performance.now();
  for (let run = 0; run < repeat; run += 1) await parse(chunks);
  return (performance.now() - start) / 1000;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(scenario: string, chunks: Buffer[]): Promise<MultipartBenchRow> {
  const bodyBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const repeat = Math.max(1, Math.round(BYTES_PER_ITERATION / bodyBytes));
  const [oursBytes, busboyBytes] = [await parseWithOurs(chunks), await parseWithBusboy(chunks)];
  if (oursBytes !== busboyBytes) throw new Error(`${scenario}: ours read ${oursBytes} bytes, busboy ${busboyBytes}`);
  const ours: number[] = [];
  const theirs: number[] = [];
  // Interleaved, so drift in machine load touches both parsers alike.
  for (let iteration = 0; iteration < WARMUP + ITERATIONS; iteration += 1) {
    const oursSeconds = await time(parseWithOurs, chunks, repeat);
    const busboySeconds = await time(parseWithBusboy, chunks, repeat);
    if (iteration < WARMUP) continue;
    ours.push(oursSeconds);
    theirs.push(busboySeconds);
  }
  const megabytes = (bodyBytes * repeat) / 1e6;
  const oursMBps = megabytes / median(ours);
  const busboyMBps = megabytes / median(theirs);
  return { scenario, oursMBps, busboyMBps, ratio: oursMBps / busboyMBps };
}

export async function runMultipartBench(): Promise<{ rows: MultipartBenchRow[] }> {
  const bigFile = buildBody([{ name: 'avatar', filename: 'big.bin', data: randomBytes(10 * 1024 * 1024) }]);
  const smallParts = buildBody(Array.from({ length: 100 }, (_, index) => (index % 2 === 0
    ? { name: `field${index}`, data: Buffer.from('v'.repeat(100)) }
    : { name: `file${index}`, filename: `f${index}.bin`, data: randomBytes(2048) })));
  return { rows: [await measure('one 10 MiB file', bigFile), await measure('100 small parts', smallParts)] };
}

function formatTable(rows: MultipartBenchRow[]): string {
  const lines = rows.map(({ scenario, oursMBps, busboyMBps, ratio }) =>
    `| ${scenario} | ${oursMBps.toFixed(0)} | ${busboyMBps.toFixed(0)} | ${ratio.toFixed(2)}x |`);
  return ['| scenario | ours MB/s | busboy MB/s | ratio |', '|---|---:|---:|---:|', ...lines].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const { rows } = await runMultipartBench();
  console.log(formatTable(rows));
}
