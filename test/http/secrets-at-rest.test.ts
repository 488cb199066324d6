// After a run, the SQLite file holds no plain password and no plain token: only scrypt hashes and SHA-256s.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from '../../src/index.ts';
import { call } from './client.ts';

test('no plain password and no plain token in the database files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-secrets-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startServer({ db: join(dir, 'chat.db'), scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' });
  const password = 'Sup3r-Secret-Passphrase';
  const newPassword = 'An0ther-Secret-Passphrase';
  await call(server, 'POST', '/users', { json: { login: 'kate', password } });
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) tokens.push((await call(server, 'POST', '/session', { json: { login: 'kate', password } })).body.token);
  await call(server, 'PATCH', '/users', { token: tokens[0], json: { password: newPassword, currentPassword: password } });
  tokens.push((await call(server, 'POST', '/session', { json: { login: 'kate', password: newPassword } })).body.token);
  await server.close();
  const files = readdirSync(dir).map((file) => readFileSync(join(dir, file)));
  assert.ok(files.length >= 1);
  for (const bytes of files) {
    for (const secret of [password, newPassword, ...tokens]) {
      assert.equal(bytes.includes(Buffer.from(secret)), false, `found ${secret.slice(0, 6)}...`);
      assert.equal(bytes.includes(Buffer.from(secret, 'utf16le')), false);
    }
    for (const token of tokens) assert.equal(bytes.includes(Buffer.from(token, 'base64url')), false, 'nor the raw token bytes');
  }
});
