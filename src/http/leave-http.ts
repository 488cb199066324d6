// An event stream leaves `node:http` once its head is written, as a WebSocket does after its upgrade: the socket is
// kept and nothing else. Held for hours by thousands of clients, a stream kept as an HTTP exchange costs its
// request, its response, the parser's native memory and the connection's listeners, about 9 KiB more a stream than
// the socket alone (bench/RESULTS.md, "Event streams leave node:http"; docs/performance.md, "Memory per user").
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
// Node's own release of a connection's parser (what it does for an upgrade): back to its pool, or closed.
import { freeParser } from 'node:_http_common';

/**
 * The listeners `node:http` puts on a connection's socket (_http_server.js: the connection's state, the parser's
 * flow control, the response's close). They hold the request and response; every other listener (ours: the
 * descriptor count) stays. Matched by name: test/http/leave-http.test.ts fails if a Node release renames one,
 * because the request is then still reachable from the socket.
 */
const HTTP_LISTENERS = new Set([
  'bound socketOnData', 'bound socketOnEnd', 'bound socketOnClose', 'bound socketOnDrain',
  'socketOnError', 'socketOnTimeout', 'onSocketResume', 'onSocketPause',
]);
const EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause'] as const;

interface HttpSocket extends Socket {
  parser: unknown;
}

/**
 * Takes the connection from `node:http`: its listeners, its parser and its response let go, the socket handed back
 * reading into nothing (the caller listens). Runs outside the parser's own call stack (the writer calls it a turn
 * after the head), so the parser can go back to its pool. After this the caller writes the body's framing
 * itself (chunked, if the response said so), and nothing may touch `res` or its request again.
 */
export function leaveHttp(res: ServerResponse): Socket {
  const socket = res.socket as HttpSocket;
  for (const event of EVENTS) {
    for (const listener of socket.listeners(event)) {
      if (HTTP_LISTENERS.has(listener.name)) socket.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  freeParser(socket.parser, res.req, socket);
  // The response's own listener (its 'close') and the socket's reference to it.
  res.detachSocket(socket);
  return socket;
}
