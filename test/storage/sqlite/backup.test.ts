// Online backup: a consistent copy while others write, checked with integrity_check; the subcommand's refusals.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { BackupError, backupDatabase } from '../../../src/storage/sqlite/backup.ts';
import { openDatabase } from '../../../src/storage/sqlite/database.ts';
import { call } from '../../http/client.ts';
import { startExecutable } from '../../http/executable.ts';
import { runCommand } from '../../run-command.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-backup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function checkCopy(path: string): { integrity: string; rows: number } {
  const copy = new Database(path, { readonly: true });
  try {
    return {
      integrity: copy.pragma('integrity_check', { simple: true }) as string,
      rows: (copy.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n,
    };
  } finally {
    copy.close();
  }
}

test('writes from another connection between backup steps restart it, and the copy is whole and consistent', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'live.db');
  const writer = openDatabase(source, []);
  t.after(() => writer.close());
  writer.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = writer.prepare('INSERT INTO filler (body) VALUES (?)');
  writer.transaction(() => { for (let i = 0; i < 500; i++) insert.run('x'.repeat(1000)); })();
  let steps = 0;
  let written = 0;
  const result = await backupDatabase(source, join(dir, 'copy.db'), {
    pagesPerStep: 20,
    onStep: () => {
      // Another connection commits between steps of the copy: SQLite starts the copy over.
      if (++steps <= 3) {
        insert.run(`written during the backup ${steps}`);
        written++;
      }
    },
  });
  assert.equal(written, 3);
  assert.ok(steps > 500 * 1000 / 4096 / 20, `the copy took ${steps} steps of 20 pages`);
  assert.equal(result.integrity, 'ok');
  assert.deepEqual(checkCopy(join(dir, 'copy.db')), { integrity: 'ok', rows: 503 });
  assert.deepEqual(readdirSync(dir).filter((file) => file.includes('partial')), [], 'no temporary file is left');
});

test('a backup refuses to overwrite, to copy nothing, or to copy memory', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'live.db');
  openDatabase(source).close();
  writeFileSync(join(dir, 'taken.db'), 'keep me');
  await assert.rejects(backupDatabase(source, join(dir, 'taken.db')), (error: unknown) => error instanceof BackupError && /already exists/.test(error.message));
  await assert.rejects(backupDatabase(join(dir, 'missing.db'), join(dir, 'copy.db')), /no database at/);
  await assert.rejects(backupDatabase(':memory:', join(dir, 'copy.db')), /nothing to back up/);
  const nested = await backupDatabase(source, join(dir, 'new', 'folder', 'copy.db'));
  assert.equal(nested.integrity, 'ok', 'missing folders are created');
});

const runCli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCommand(['backup', ...args], env);

test('chat-server backup copies the database of a running server while it takes writes', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'chat.db');
  const server = await startExecutable(t, ['--db', db, '--quiet']);
  const login = { login: 'writer', password: 'a long password' };
  assert.equal((await call(server.url, 'POST', '/users', { json: login })).status, 201);
  const { token } = (await call(server.url, 'POST', '/session', { json: login })).body;
  const chatId = (await call(server.url, 'POST', '/chats', { token, json: { data: { title: 'Busy' } } })).body.data.id;
  let posted = 0;
  let writing = true;
  const writes = (async () => {
    while (writing) {
      const res = await call(server.url, 'POST', `/chats/${chatId}/messages`, { token, json: { data: { text: `message ${posted}` } } });
      assert.equal(res.status, 201);
      posted++;
    }
  })();
  const copy = join(dir, 'backups', 'chat-copy.db');
  const postedBefore = posted;
  const cli = await runCli([copy, '--db', db]);
  const postedDuring = posted - postedBefore;
  writing = false;
  await writes;
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /^chat-server backup: copied .*chat\.db to .*chat-copy\.db \(\d+ pages, integrity ok, \d+ ms\)\n$/);
  assert.ok(postedDuring > 0, 'the server took writes while the backup ran');
  const copied = new Database(copy, { readonly: true });
  t.after(() => copied.close());
  assert.equal(copied.pragma('integrity_check', { simple: true }), 'ok');
  const messages = (copied.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  assert.ok(messages >= postedBefore && messages <= posted, `the copy holds ${messages} messages: a moment between ${postedBefore} and ${posted}`);
});

test('chat-server backup explains what it cannot do, in one line, with exit 2', async (t) => {
  const dir = tempDir(t);
  const rows: { args: string[]; env?: NodeJS.ProcessEnv; message: RegExp }[] = [
    { args: [], message: /missing the backup file name \(usage: chat-server backup <file> \[--db <path>\]\)/ },
    { args: ['--db', 'x.db'], message: /missing the backup file name/ },
    { args: [join(dir, 'copy.db'), '--db', 'postgres://chat@localhost/chat'], message: /PostgreSQL: back it up with pg_dump/ },
    { args: [join(dir, 'copy.db'), '--db', join(dir, 'none.db')], message: /no database at/ },
    { args: [join(dir, 'copy.db')], env: { DB_PATH: ':memory:' }, message: /nothing to back up/ },
    { args: [join(dir, 'copy.db'), '--port', 'many'], message: /--port: expected an integer/ },
  ];
  for (const row of rows) {
    const result = await runCli(row.args, row.env);
    assert.equal(result.code, 2, JSON.stringify(row.args));
    assert.match(result.stderr, /^chat-server backup: [^\n]+\n$/);
    assert.match(result.stderr, row.message);
  }
  assert.equal(existsSync(join(dir, 'copy.db')), false);
});
