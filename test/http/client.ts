// Test helpers: start a server on port 0 with an in-memory database, and talk to it over a real socket.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { TestContext } from 'node:test';
import { startServer, type RunningServer, type StartOptions } from '../../src/index.ts';
import type { Db } from '../../src/storage/sqlite/database.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import pg from 'pg';
import { createTestDatabase } from '../postgres/test-database.ts';
import { checkExchange } from './openapi-check.ts';

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface CallOptions {
  headers?: Record<string, string | string[]>;
  /** An object is sent as JSON with Content-Type: application/json unless headers say otherwise. */
  json?: unknown;
  body?: string | Buffer;
  token?: string;
  /**
   * Every answer is checked against the OpenAPI document (openapi-check.ts) and a mismatch rejects.
   * Only a test that sends garbage on purpose, where no document could say what comes back, opts out
   * here, saying why.
   */
  unchecked?: string;
  /** Gives up (rejects) when no answer came in this time, as a real client would. */
  timeoutMs?: number;
  /**
   * The client's own address, one of the loopback range (127.0.0.2, 127.0.0.3, ...): the server sees the
   * request come from it, as from another machine, for the per-address limits. Default 127.0.0.1.
   */
  from?: string;
}

/** A moving clock: tests advance time instead of sleeping. */
export class TestClock {
  public time: number;

  constructor(time = Date.UTC(2026, 10, 21, 9, 30)) {
    this.time = time;
  }
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * The one place tests start a server, so that which database backs the suite is chosen here, not in each test:
 * a fresh in-memory SQLite database unless TEST_DATABASE_URL names another backend's database (a test that
 * passes its own `db`, a SQLite file it inspects, keeps it). Rate limits are off unless a test is about them
 * (it passes writeRate / registerRate / loginRate). Sign-up is open unless a test is about sign-up modes (it passes registration).
 */
export async function startTestServer(options: StartOptions = {}): Promise<RunningServer> {
  // PostgreSQL (scripts/with-postgres.ts): every server gets an empty database of its own, dropped after it closed.
  const database = options.db === undefined && process.env['TEST_DATABASE_URL'] ? await createTestDatabase() : undefined;
  const server = await startServer({ scryptN: 1024, writeRate: 0, registerRate: 0, loginRate: 0, registration: 'open', ...(database ? { db: database.url } : {}), ...options });
  if (database) {
    const close = server.close;
    server.close = async () => {
      await close();
      await database.drop();
    };
  }
  return server;
}

export async function withServer(t: TestContext, options: StartOptions = {}): Promise<RunningServer> {
  const server = await startTestServer(options);
  t.after(() => server.close());
  return server;
}

/**
 * Runs one SQL statement on the server's own database, whichever the backend, for the few tests that break or
 * inspect the database itself with SQL both engines understand; counts come back as numbers.
 */
export async function runSql(server: RunningServer, sql: string): Promise<Record<string, unknown>[]> {
  const { storage, config } = server.app.services;
  if (storage instanceof SqliteStore) {
    const statement = storage.db.prepare(sql);
    return statement.reader ? statement.all() as Record<string, unknown>[] : (statement.run(), []);
  }
  const client = new pg.Client({ connectionString: config.db, types: { getTypeParser: ((oid: number, format: 'text') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format))) as never } });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The SQLite connection behind a server, for the few tests that break or inspect the database itself. */
export function sqliteDbOf(server: RunningServer): Db {
  const { storage } = server.app.services;
  if (!(storage instanceof SqliteStore)) throw new Error('this test reaches into SQLite itself: it needs the SQLite backend');
  return storage.db;
}

export function call(server: RunningServer | string, method: string, path: string, options: CallOptions = {}): Promise<TestResponse> {
  const base = typeof server === 'string' ? server : server.url;
  const headers: Record<string, string | string[]> = { ...options.headers };
  let payload: Buffer | undefined;
  if (options.json !== undefined) {
    payload = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    payload = Buffer.from(options.body);
  }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false, ...(options.from ? { localAddress: options.from } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const response = { status: res.statusCode!, headers: res.headers, raw, text, body };
        if (options.unchecked === undefined) {
          const basePath = typeof server === 'string' ? '' : server.app.services.config.basePath;
          try {
            const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
            const request = payload && { contentType: contentType === undefined ? undefined : String(contentType), text: payload.toString('utf8') };
            checkExchange({ method, url: path, basePath, status: response.status, headers: res.headers, text, ...(request ? { request } : {}) });
          } catch (error) {
            reject(error);
            return;
          }
        }
        resolve(response);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.end(payload);
  });
}

/** Sends bytes as they are on a fresh connection; resolves with everything the server sent until it closed. */
export function rawExchange(server: RunningServer, bytes: string | Buffer, options: { endAfterWrite?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.write(bytes, () => {
      if (options.endAfterWrite !== false) socket.end();
    });
  });
}

let loginCounter = 0;

export interface LoggedIn {
  token: string;
  userId: string;
  login: string;
  password: string;
}

export async function registerAndLogIn(server: RunningServer, login = `user${++loginCounter}x`, password = 'correct horse battery'): Promise<LoggedIn> {
  const registered = await call(server, 'POST', `${server.app.services.config.basePath}/users`, { json: { login, password } });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const session = await call(server, 'POST', `${server.app.services.config.basePath}/session`, { json: { login, password } });
  if (session.status !== 201) throw new Error(`login failed: ${session.status} ${session.text}`);
  return { token: session.body.token, userId: registered.body.id, login, password };
}
