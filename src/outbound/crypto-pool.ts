// A small pool of worker threads for the CPU work of pushes (docs/push.md, "What runs where"): a fan-out's 1,000
// encryptions (an ECDH key agreement each) run beside the event loop, never on it. A thread that dies is replaced and
// its jobs are handed to another; a job that ended two threads is refused (one bad job must not end a third). Where no
// thread can run (the single executable has no file to start one from, or threads keep dying) jobs run here, one per
// turn of the event loop. Started with the server when it sends pushes (--push-subject), else at the first job.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runCryptoJob, type CryptoJob } from './crypto-jobs.ts';
import type { JobMessage, ReplyMessage } from './crypto-worker.ts';

/** How many threads ended by one job before it is refused. */
const MAX_ATTEMPTS = 2;
/** More deaths than this within DEATH_WINDOW_MS: threads are given up, jobs run on the event loop. */
const MAX_DEATHS = 5;
const DEATH_WINDOW_MS = 10_000;

/** One core for the event loop, the rest (at most 2) for threads: 1 on 2 cores. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

interface Pending {
  job: CryptoJob;
  attempts: number;
  resolve(value: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  id: number;
  /** Jobs handed to this thread and not yet answered, by id. */
  jobs: Map<number, Pending>;
}

export interface CryptoPoolOptions {
  size?: number;
  logError: (error: unknown) => void;
  /** The worker's module; crypto-worker beside this module, with its extension (.ts from source, .js built). */
  workerUrl?: URL;
}

export class CryptoPool {
  private readonly size: number;
  private readonly workerUrl: URL;
  private readonly logError: (error: unknown) => void;
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private deaths: number[] = [];
  /** No thread can run: jobs run on the event loop. */
  private onEventLoop: boolean;
  private stopped = false;
  /** Running on the event loop was logged once. */
  private saidSo = false;

  constructor(options: CryptoPoolOptions) {
    this.size = options.size ?? defaultPoolSize();
    this.logError = options.logError;
    this.workerUrl = options.workerUrl ?? new URL(`./crypto-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    this.onEventLoop = !existsSync(fileURLToPath(this.workerUrl));
  }

  /** Runs a job on a thread; rejects with the job's own error, or when it ended two threads. */
  run(job: CryptoJob): Promise<Uint8Array> {
    if (this.stopped) return Promise.reject(new Error('crypto pool: stopped'));
    return new Promise((resolve, reject) => this.dispatch({ job, attempts: 0, resolve, reject }));
  }

  /**
   * Starts the threads now rather than at the first job: starting one holds the event loop for tens of ms, which is
   * better spent when the server starts than in the middle of its first fan-out.
   */
  start(): void {
    while (!this.stopped && !this.onEventLoop && this.threads.length < this.size) this.startThread();
  }

  /** The thread ids (tests end one to see it replaced). */
  get threadIds(): number[] {
    return this.threads.map((thread) => thread.worker.threadId);
  }

  /** Whether jobs run on the event loop (no thread could be kept running). */
  get runsOnEventLoop(): boolean {
    return this.onEventLoop;
  }

  /** Ends one thread as a crash would (its jobs are handed on, a new one takes its place): for tests. */
  async endThread(threadId: number): Promise<void> {
    await this.threads.find((thread) => thread.id === threadId)?.worker.terminate();
  }

  /** Ends every thread; jobs not yet answered are rejected. */
  async stop(): Promise<void> {
    this.stopped = true;
    const threads = this.threads.splice(0);
    for (const thread of threads) for (const pending of thread.jobs.values()) pending.reject(new Error('crypto pool: stopped'));
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(pending: Pending): void {
    if (this.onEventLoop && !this.saidSo) {
      this.saidSo = true;
      this.logError(new Error(`crypto pool: no thread (${fileURLToPath(this.workerUrl)}); push encryption runs on the event loop`));
    }
    if (this.onEventLoop) {
      // One job per turn: a fan-out's jobs take turns with the requests.
      setImmediate(() => {
        try {
          pending.resolve(runCryptoJob(pending.job));
        } catch (error) {
          pending.reject(error as Error);
        }
      });
      return;
    }
    this.start();
    if (this.onEventLoop) return this.dispatch(pending);
    let least = this.threads[0]!;
    for (const thread of this.threads) if (thread.jobs.size < least.jobs.size) least = thread;
    const id = this.nextId++;
    least.jobs.set(id, pending);
    least.worker.postMessage({ id, job: pending.job } satisfies JobMessage);
  }

  private startThread(): void {
    let worker: Worker;
    try {
      worker = new Worker(this.workerUrl);
    } catch (error) {
      this.giveUpThreads(error);
      return;
    }
    // Never holds the process open: the loop that feeds it does, while it has work.
    worker.unref();
    const thread: Thread = { worker, id: worker.threadId, jobs: new Map() };
    this.threads.push(thread);
    worker.on('message', (reply: ReplyMessage) => {
      const pending = thread.jobs.get(reply.id);
      if (!pending) return;
      thread.jobs.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new Error(reply.message));
    });
    // An uncaught error in the thread: logged here (an 'error' without a listener would end this process), then 'exit'.
    worker.on('error', (error) => this.logError(error));
    worker.on('exit', (code) => this.replaceThread(thread, code));
  }

  /** A thread ended while the pool runs: its jobs go to the others (or a new one), each at most MAX_ATTEMPTS times. */
  private replaceThread(thread: Thread, code: number): void {
    const index = this.threads.indexOf(thread);
    if (index === -1 || this.stopped) return;
    this.threads.splice(index, 1);
    const now = Date.now();
    this.deaths = [...this.deaths.filter((at) => now - at < DEATH_WINDOW_MS), now];
    this.logError(new Error(`crypto pool: thread ${thread.id} exited (code ${code}); ${thread.jobs.size} job(s) handed on`));
    if (this.deaths.length > MAX_DEATHS) this.giveUpThreads(new Error(`crypto pool: ${this.deaths.length} threads died within ${DEATH_WINDOW_MS} ms`));
    else this.startThread();
    for (const pending of thread.jobs.values()) {
      pending.attempts += 1;
      if (pending.attempts >= MAX_ATTEMPTS) pending.reject(new Error(`crypto pool: the job ended ${pending.attempts} threads`));
      else this.dispatch(pending);
    }
  }

  private giveUpThreads(error: unknown): void {
    this.logError(error);
    this.onEventLoop = true;
  }
}
