// Yardsticks for bench/run.ts, run as a child by startChild: a bare node:http server that answers with the exact
// bytes the chat server sent for the same request ("bytes"), optionally after the scrypt work a login does ("scrypt").
// The work baseline for message pages and posts is bench/messages-baseline.ts.
import { scrypt } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded answer of the chat server. */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

export interface BaselineOptions {
  /** Answers by request path (with its query); any other path gets the first one. */
  answers: Record<string, RecordedAnswer>;
  /** Derive a scrypt key from the body's password before answering, with the chat server's default cost. */
  scrypt?: { n: number };
}

/** Headers Node writes itself, or that describe the connection rather than the answer. */
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Turns a fetch() Response into an answer the baseline can replay. */
export async function recordAnswer(response: Response): Promise<RecordedAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, bodyBase64: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function deriveKey(password: string, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, 'a fixed salt', 32, { N: n, r: 8, p: 1, maxmem: 256 * n * 8 + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function start(options: BaselineOptions): Promise<{ url: string; close(): Promise<void> }> {
  const answers = new Map(Object.entries(options.answers).map(([path, answer]) => [path, { ...answer, body: Buffer.from(answer.bodyBase64, 'base64') }]));
  const fallback = answers.values().next().value!;
  const server = createServer((req, res) => {
    void (async () => {
      // The request body is read in full, as the chat server does, before answering.
      const body = await readBody(req);
      if (options.scrypt) await deriveKey(String((JSON.parse(body.toString() || '{}') as { password?: unknown }).password), options.scrypt.n);
      const answer = answers.get(req.url ?? '/') ?? fallback;
      res.writeHead(answer.status, { ...answer.headers, 'Content-Length': answer.body.length });
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}
