// Writes a body that is read as it is sent (an attachment's chunks), as fast as the client takes it.
import type { ServerResponse } from 'node:http';
import { BufferRelease } from './buffer-release.ts';

/**
 * Writes each chunk, waiting for 'drain' whenever the socket's buffer is full, so at most one chunk waits in
 * memory however slow the client. A client that goes away stops the reading; a chunk that cannot be read (its
 * content deleted meanwhile) cuts the connection, since the head promised a length the body can no longer have.
 */
export async function streamBody(res: ServerResponse, chunks: AsyncIterable<Buffer>): Promise<void> {
  const release = new BufferRelease();
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) return;
      release.note(chunk.length);
      if (!res.write(chunk)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Resolves at 'drain', or at 'close' when the client went away; both listeners leave either way. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
