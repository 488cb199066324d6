// The baseline of the attachments benchmark: a bare node:http server that streams an upload into a file and a file
// back out, with no parsing, no hashing, no database: what moving the bytes through Node costs at the least.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export async function start(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'attachments-baseline-'));
  const file = join(dir, 'file.bin');
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      pipeline(req, createWriteStream(file)).then(() => {
        res.writeHead(201, { 'Content-Length': 0 });
        res.end();
      }, () => res.destroy());
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': statSync(file).size });
    pipeline(createReadStream(file), res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => {
      rmSync(dir, { recursive: true, force: true });
      resolve();
    })),
  };
}
