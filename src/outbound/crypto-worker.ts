// A worker thread of crypto-pool.ts: runs each job it is handed (crypto-jobs.ts), in order, and answers by id.
import { parentPort } from 'node:worker_threads';
import { runCryptoJob, type CryptoJob } from './crypto-jobs.ts';

export interface JobMessage {
  id: number;
  job: CryptoJob;
}

export type ReplyMessage = { id: number; ok: true; value: Uint8Array } | { id: number; ok: false; message: string };

parentPort?.on('message', ({ id, job }: JobMessage) => {
  let reply: ReplyMessage;
  try {
    reply = { id, ok: true, value: runCryptoJob(job) };
  } catch (error) {
    reply = { id, ok: false, message: (error as Error).message };
  }
  // The answer's memory is its own (crypto-jobs.ts): moved, not copied.
  parentPort!.postMessage(reply, reply.ok ? [reply.value.buffer as ArrayBuffer] : []);
});
