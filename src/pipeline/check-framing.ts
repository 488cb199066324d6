// Stage 1, framing: what Node's parser lets through but RFC 9112 refuses.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/http-error.ts';

/** RFC 9112 §3.2: a request with more than one Host is refused (Node keeps the first and drops the others). */
export function checkFraming(req: IncomingMessage): void {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) throw new HttpError('ERR_BAD_REQUEST', 'The request has more than one Host header');
}
