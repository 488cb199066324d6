// Whether the client is still there to take its answer, and an AbortSignal for work done on its behalf.
import type { ServerResponse } from 'node:http';

/** The response closed (Node sets `destroyed` when its socket goes) without having been written in full. */
const left = (res: ServerResponse): boolean => res.destroyed && !res.writableFinished;

/** One per request: a class, so a request that never asks for the signal makes one small object and no closure. */
export class ClientPresence {
  private controller: AbortController | undefined;

  private readonly res: ServerResponse;

  constructor(res: ServerResponse) {
    this.res = res;
  }

  /** Aborts when the client leaves before its answer is finished. Made on first use: most answers never ask. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = this.controller = new AbortController();
      const res = this.res;
      if (left(res)) controller.abort();
      // 'close' before the answer is finished: the client is gone (req's own 'close' also fires once its body is read).
      else res.once('close', () => { if (!res.writableFinished) controller.abort(); });
    }
    return this.controller.signal;
  }

  /** True once the connection closed before the answer was finished. */
  gone(): boolean {
    return this.controller?.signal.aborted === true || left(this.res);
  }
}
