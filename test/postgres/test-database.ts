// An empty, migrated PostgreSQL database per test server, copied from the template the runner prepared
// (scripts/with-postgres.ts): CREATE DATABASE ... TEMPLATE takes tens of milliseconds, migrating would take more.
import pg from 'pg';
import { migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.ts';

/** Set by scripts/with-postgres.ts: the throwaway cluster's admin URL and the migrated template's name. */
export let TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];
export const TEST_DATABASE_TEMPLATE = process.env['TEST_DATABASE_TEMPLATE'] ?? 'chat_template';

export interface TestDatabase {
  url: string;
  /** Drops the database (its connections are closed first). */
  drop(): Promise<void>;
}

let admin: Promise<pg.Client> | undefined;

type Socketed = { connection: { stream: { ref(): void; unref(): void } } };

/** The admin connection keeps the test process alive only while it has work: between queries it is unref'd. */
function idle(client: pg.Client): void {
  (client as unknown as Socketed).connection.stream.unref();
}

async function adminQuery(client: pg.Client, sql: string): Promise<void> {
  (client as unknown as Socketed).connection.stream.ref();
  try {
    await client.query(sql);
  } finally {
    idle(client);
  }
}
let counter = 0;

function adminClient(url: string): Promise<pg.Client> {
  admin ??= (async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    idle(client);
    return client;
  })();
  return admin;
}

/** A URL with the database part replaced. */
export function urlWithDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh database from the template, on the runner's cluster (or this process's own, see ensureTestCluster). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = await ensureTestCluster();
  const client = await adminClient(url);
  const name = `chat_test_${process.pid}_${++counter}`;
  await adminQuery(client, `CREATE DATABASE ${name} TEMPLATE ${TEST_DATABASE_TEMPLATE}`);
  return {
    url: urlWithDatabase(url, name),
    drop: async () => {
      await adminQuery(client, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A database with no schema at all (not made from the template), dropped when the test ends: for the tests of
 * migrations themselves, which apply some and then the rest.
 */
export async function createEmptyDatabase(t: { after(fn: () => Promise<void>): void }, name: string): Promise<string> {
  const cluster = await ensureTestCluster();
  const admin = new pg.Client({ connectionString: cluster });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  t.after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return urlWithDatabase(cluster, name);
}

/** Makes a template database of the migrated schema on a fresh cluster; no connection stays on it. */
export async function prepareTemplate(clusterUrl: string, template: string = TEST_DATABASE_TEMPLATE): Promise<void> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const client = new pg.Client({ connectionString: urlWithDatabase(clusterUrl, template) });
  await client.connect();
  await migratePostgres(client);
  await client.end();
}

let own: Promise<ThrowawayPostgres> | undefined;

/**
 * The cluster to make test databases on: the runner's (TEST_DATABASE_URL), or, when a test file runs alone, a
 * throwaway one of this process, removed when it exits.
 */
export async function ensureTestCluster(): Promise<string> {
  if (TEST_DATABASE_URL !== undefined) return TEST_DATABASE_URL;
  own ??= (async () => {
    const server = await startThrowawayPostgres();
    await prepareTemplate(server.url);
    return server;
  })();
  TEST_DATABASE_URL = (await own).url;
  return TEST_DATABASE_URL;
}
