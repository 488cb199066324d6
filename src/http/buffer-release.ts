// Frees the Buffers a long transfer has finished with, every few MiB, instead of when V8 happens to look.
//
// A stream of a large file allocates a Buffer per chunk: the socket's reads of an upload, the driver's rows of a
// download. Each is garbage a moment later, but V8 frees a Buffer's memory only when it collects the small object
// that holds it, and with little JavaScript allocated meanwhile it does not collect until some 64 MiB of such
// memory has piled up: a 25 MiB transfer would hold all its chunks at once (docs/protocol.md §15.3 bounds the
// growth to 10 MiB). A young-generation collection (a scavenge, under a millisecond) every RELEASE_EVERY bytes
// frees them while the next chunks arrive. V8 lets a process ask for one only once `--expose-gc` is set.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of a transfer between two collections, by default. */
export const RELEASE_EVERY = 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | undefined;

function collector(): Collect {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  return collect;
}

/** Counts one transfer's bytes and collects the young generation each time RELEASE_EVERY more have passed. */
export class BufferRelease {
  private pending = 0;
  private readonly every: number;

  /**
   * `every`: an upload's chunks live across a database write, and a collection each MiB would see them twice and
   * move them to the old generation, which only a full collection frees: it collects less often than a download.
   */
  constructor(every = RELEASE_EVERY) {
    this.every = every;
  }

  note(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.every) return;
    this.pending = 0;
    collector()({ type: 'minor' });
  }
}
