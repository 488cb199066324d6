// Keep-alive connections per target origin and checked address (docs/protocol.md §16.6): a fan-out to 1,000
// subscriptions of one push service reuses a few connections instead of opening (and, over https, handshaking) 1,000.
// An agent is keyed by the pinned address as well as the origin, so a connection is never reused for a name that
// now resolves elsewhere; a bounded number of agents is kept, the least recently used closed first.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { SafeTarget } from './safe-target.ts';

/** Connections open at once to one origin: requests beyond wait for one (the loop's in-flight cap is 64). */
export const SOCKETS_PER_ORIGIN = 16;
/** Origins kept at once; a webhook per origin and a few push services fit. */
const MAX_AGENTS = 64;
/** An idle connection is closed after this long (push services close theirs after a minute or more). */
const IDLE_MS = 30_000;

export class KeepAliveAgents {
  private readonly agents = new Map<string, HttpAgent>();

  /** The agent for a checked target: made on first use, moved to the most recently used end. */
  agentFor(target: SafeTarget): HttpAgent {
    const key = `${target.url.protocol}//${target.url.host} ${target.address}`;
    const found = this.agents.get(key);
    if (found) {
      this.agents.delete(key);
      this.agents.set(key, found);
      return found;
    }
    const options = { keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN, maxFreeSockets: SOCKETS_PER_ORIGIN, timeout: IDLE_MS, scheduling: 'lifo' as const };
    const agent = target.url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) {
      const [oldest, old] = this.agents.entries().next().value!;
      this.agents.delete(oldest);
      old.destroy();
    }
    return agent;
  }

  /** Closes every connection (the loop stops). */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
