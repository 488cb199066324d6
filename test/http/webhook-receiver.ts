// A webhook receiver for the tests (docs/protocol.md §16.4): it checks every signature with the npm package
// standardwebhooks, an implementation of the scheme independent of ours, and records what it got.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload as standardwebhooks verified it; undefined when it was not given the secret yet. */
  event: any;
}

export interface ReplyPlan {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (a receiver that times out). */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Set once the webhook is made: from then on every request is verified, and a bad signature fails the test. */
  secret: string | undefined;
  failures: string[];
  /** Resolves once `count` requests arrived. */
  waitFor(count: number): Promise<void>;
  server: Server;
}

export async function startReceiver(t: TestContext, plan: (received: Received) => ReplyPlan = () => ({ status: 204 })): Promise<Receiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '', received: [], secret: undefined, failures: [], server: undefined as unknown as Server,
    waitFor: (count) => new Promise((resolve) => {
      if (receiver.received.length >= count) resolve();
      else waiters.push({ count, resolve });
    }),
  };
  receiver.server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let event: unknown;
      if (receiver.secret !== undefined) {
        try {
          event = new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
        } catch (error) {
          receiver.failures.push(`${String(req.headers['webhook-id'])}: ${(error as Error).message}`);
        }
      }
      const got: Received = { id: String(req.headers['webhook-id']), headers: req.headers, body, event };
      receiver.received.push(got);
      for (const waiter of [...waiters]) {
        if (receiver.received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      const reply = plan(got);
      if (reply.hang) return;
      res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  t.after(() => {
    receiver.server.closeAllConnections();
    receiver.server.close();
  });
  return receiver;
}
