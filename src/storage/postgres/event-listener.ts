// LISTEN chat_events on one dedicated connection (never the pool's): a hint that another server appended events;
// and chat_ephemeral: the ephemeral bus's messages from every server (Store.broadcast).
// NOTIFY has no replay, so a hint lost while reconnecting costs nothing: the hub still reads the log on its timer.
import type { CommitListener } from '../commit-listener.ts';
import type { Client } from './driver.ts';

export const EVENTS_CHANNEL = 'chat_events';
/** The ephemeral bus's channel (Store.broadcast): its payloads are the messages themselves, never stored. */
export const EPHEMERAL_CHANNEL = 'chat_ephemeral';

export interface EventListenerOptions {
  connect(): Promise<Client>;
  /** Told of each notification (othersCommitted): read the log now. Unset in a store no hub reads (a migration). */
  commits?: CommitListener;
  /** Told each payload on the ephemeral channel. */
  onBroadcast?: (payload: string) => void;
  /** Wait before a new connection after one failed or was cut, ms. */
  retryMs?: number;
}

export class EventListener {
  private client: Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  private readonly options: EventListenerOptions;

  constructor(options: EventListenerOptions) {
    this.options = options;
  }

  /** Resolves once listening, or after the first failure (a retry is then scheduled). */
  async start(): Promise<void> {
    if (this.stopped) return;
    let client: Client | undefined;
    try {
      client = await this.options.connect();
      // Errors and the end of the connection both lead to a new one; none may crash the process.
      client.on('error', () => this.reconnect(client!));
      client.on('end', () => this.reconnect(client!));
      client.on('notification', (message) => {
        if (message.channel === EPHEMERAL_CHANNEL) this.options.onBroadcast?.(message.payload ?? '');
        else this.options.commits?.othersCommitted();
      });
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (this.options.onBroadcast) await client.query(`LISTEN ${EPHEMERAL_CHANNEL}`);
      if (this.stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      // Events appended while no connection listened: one hint covers them all.
      this.options.commits?.othersCommitted();
    } catch {
      if (client) this.reconnect(client);
      else this.schedule();
    }
  }

  private reconnect(client: Client): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, this.options.retryMs ?? 1000);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
