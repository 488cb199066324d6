// Whether the client is still there to take its answer, and an AbortSignal for work done on its behalf.
import type { ServerResponse } from 'node:http';

export interface ClientPresence {
  /** Aborts when the client leaves before its answer is finished. Made on first use: most answers never ask. */
  readonly signal: AbortSignal;
  /** True once the connection closed before the answer was finished. */
  gone(): boolean;
}

/** The response closed (Node sets `destroyed` when its socket goes) without having been written in full. */
const left = (res: ServerResponse): boolean => res.destroyed && !res.writableFinished;

export function clientPresence(res: ServerResponse): ClientPresence {
  let controller: AbortController | undefined;
  return {
    get signal(): AbortSignal {
      if (controller === undefined) {
        controller = new AbortController();
        const abort = controller.abort.bind(controller);
        if (left(res)) abort();
        // 'close' before the answer is finished: the client is gone (req's own 'close' also fires once its body is read).
        else res.once('close', () => { if (!res.writableFinished) abort(); });
      }
      return controller.signal;
    },
    gone: () => controller?.signal.aborted === true || left(res),
  };
}
