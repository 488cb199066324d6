// The SSE writer's pings (http/sse.ts, docs/protocol.md §9.2): the hub ticks twice in each ping interval, and a stream
// writes a comment only when it carried nothing since the tick before; so it is never silent for a whole interval,
// and a stream that carries events gets none.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { SseWriter } from '../../src/http/sse.ts';

/** A response that records what is written to it (the writer writes through it until the stream leaves node:http). */
function recordingResponse(): { res: ServerResponse; written: string[] } {
  const written: string[] = [];
  const socket = Object.assign(new EventEmitter(), { destroyed: false, writableLength: 0 });
  const res = Object.assign(new EventEmitter(), {
    req: { socket },
    chunkedEncoding: true,
    writableLength: 0,
    write: (chunk: string | Buffer) => (written.push(String(chunk)), true),
    end: () => {},
  });
  return { res: res as unknown as ServerResponse, written };
}

const event = (id: number) => ({ frameText: `id: ${id}\ndata: {}\n\n`, chunkBytes: () => Buffer.from(`id: ${id}\ndata: {}\n\n`) });

test('a silent stream is pinged every second tick, so never silent for a whole interval; one carrying events is not', () => {
  const { res, written } = recordingResponse();
  const writer = new SseWriter(res);
  writer.ready(0);
  const pings = (): number => written.filter((chunk) => chunk === ': ping\n\n').length;
  // The tick after the last write only notes that it was written; the one after that, with nothing since, pings.
  writer.ping();
  assert.equal(pings(), 0);
  writer.ping();
  assert.equal(pings(), 1);
  writer.ping();
  assert.equal(pings(), 1, 'the ping itself was a write: the next tick only notes it');
  writer.ping();
  assert.equal(pings(), 2);

  // An event between every two ticks: no ping at all.
  for (let tick = 0; tick < 10; tick += 1) {
    writer.deliver([event(tick + 1)]);
    writer.ping();
  }
  assert.equal(pings(), 2);
  // Quiet again: pinged at the second tick.
  writer.ping();
  writer.ping();
  assert.equal(pings(), 3);
});

test('over a random run of events and ticks: never two ticks without a write between them, and no ping a write made needless', () => {
  const { res, written } = recordingResponse();
  const writer = new SseWriter(res);
  writer.ready(0);
  let seed = 7;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let id = 0;
  let pings = 0;
  // When the stream last carried something, in ticks: events between tick t-1 and t count as t - 0.5.
  let lastWrite = -0.5;
  for (let tick = 0; tick < 2000; tick += 1) {
    const events = next() < 0.5 ? 0 : 1 + Math.floor(next() * 3);
    for (let i = 0; i < events; i += 1) writer.deliver([event(++id)]);
    if (events > 0) lastWrite = tick - 0.5;
    const before = written.length;
    writer.ping();
    const pinged = written.length > before;
    // A ping only when the stream carried nothing since the tick before; never silent from one tick to the next but one.
    if (pinged) {
      assert.ok(tick - lastWrite >= 1, `tick ${tick}: pinged though it carried something since the tick before`);
      pings += 1;
      lastWrite = tick;
    }
    assert.ok(tick - lastWrite < 2, `tick ${tick}: silent for two ticks, a whole interval`);
  }
  assert.ok(pings > 100 && pings < 1000, `${pings} pings in 2000 ticks, half of them without events`);
});
