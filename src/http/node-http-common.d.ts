// Node's HTTP internals that src/http/leave-http.ts uses, as Node 24 exports them (lib/_http_common.js); @types/node
// does not describe them.
declare module 'node:_http_common' {
  /** Returns a connection's parser to Node's pool (or closes it) and unhooks it from the request and the socket. */
  export function freeParser(parser: unknown, req: unknown, socket: unknown): void;
}
