// Two servers on one new PostgreSQL database, as on two machines: each its own pool, LISTEN connection and kept reads.
import type { TestContext } from 'node:test';
import { startServer, type RunningServer, type StartOptions } from '../../src/index.ts';
import { createTestDatabase } from './test-database.ts';

/** Started with open sign-up and no rate limits; both closed and the database dropped after the test. */
export async function twoServers(t: TestContext, options: StartOptions = {}): Promise<[RunningServer, RunningServer]> {
  const database = await createTestDatabase();
  const start = () => startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', ...options });
  const servers = [await start(), await start()] as [RunningServer, RunningServer];
  t.after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });
  return servers;
}
