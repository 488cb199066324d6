// Configuration: flags over environment over defaults, and a clear exit code 2 for a bad value.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError, DEFAULT_CONFIG, OPTIONS, parseConfig } from '../src/config.ts';
import { formatHelp } from '../src/help.ts';

test('defaults match the contract', () => {
  assert.deepEqual(parseConfig([], {}), DEFAULT_CONFIG);
  assert.equal(DEFAULT_CONFIG.port, 8080);
  assert.equal(DEFAULT_CONFIG.host, '127.0.0.1');
  assert.equal(DEFAULT_CONFIG.db, './data/chat.db');
  assert.equal(DEFAULT_CONFIG.sessionTtl, 86400);
  assert.equal(DEFAULT_CONFIG.sessionMaxAge, 30 * 86400);
  assert.equal(DEFAULT_CONFIG.scryptN, 131072);
  assert.equal(DEFAULT_CONFIG.maxBodyBytes, 1048576);
  assert.equal(DEFAULT_CONFIG.maxAvatarBytes, 5 * 1048576);
  assert.equal(DEFAULT_CONFIG.writeRate, 600);
  assert.equal(DEFAULT_CONFIG.registerRate, 20);
  assert.equal(DEFAULT_CONFIG.trustProxy, false);
  assert.equal(DEFAULT_CONFIG.maxAvatarPixels, 40_000_000);
  assert.equal(DEFAULT_CONFIG.publicUrl, '');
});

test('every option reads from its flag and its environment variable; the flag wins', () => {
  const rows = [
    { what: 'port', argv: ['--port', '9000'], env: { PORT: '1' }, expected: { port: 9000 } },
    { what: 'port from env', argv: [], env: { PORT: '0' }, expected: { port: 0 } },
    { what: 'inline flag', argv: ['--host=0.0.0.0'], env: {}, expected: { host: '0.0.0.0' } },
    { what: 'db memory', argv: [], env: { DB_PATH: ':memory:' }, expected: { db: ':memory:' } },
    { what: 'DATABASE_URL over DB_PATH', argv: [], env: { DB_PATH: 'x.db', DATABASE_URL: 'postgres://h/db' }, expected: { db: 'postgres://h/db' } },
    { what: '--db over DATABASE_URL', argv: ['--db', 'y.db'], env: { DATABASE_URL: 'postgres://h/db' }, expected: { db: 'y.db' } },
    { what: 'pool', argv: [], env: { DB_POOL: '25' }, expected: { dbPool: 25 } },
    { what: 'base path', argv: ['--base-path', '/api'], env: {}, expected: { basePath: '/api' } },
    { what: 'base path slash', argv: [], env: { BASE_PATH: '/' }, expected: { basePath: '' } },
    { what: 'ttl', argv: [], env: { SESSION_TTL: '60', SESSION_MAX_AGE: '120' }, expected: { sessionTtl: 60, sessionMaxAge: 120 } },
    { what: 'scrypt', argv: ['--scrypt-n', '1024'], env: {}, expected: { scryptN: 1024 } },
    { what: 'flag', argv: ['--secure-cookies', '--quiet'], env: {}, expected: { secureCookies: true, quiet: true } },
    { what: 'flag env', argv: [], env: { QUIET: 'false', SECURE_COOKIES: '1' }, expected: { quiet: false, secureCookies: true } },
    { what: 'limits', argv: ['--max-body-bytes', '10', '--max-avatar-bytes=20'], env: {}, expected: { maxBodyBytes: 10, maxAvatarBytes: 20 } },
    { what: 'login limit', argv: [], env: { LOGIN_MAX_FAILURES: '3', LOGIN_WINDOW: '60' }, expected: { loginMaxFailures: 3, loginWindow: 60 } },
    { what: 'rate limits off', argv: ['--write-rate', '0'], env: { REGISTER_RATE: '0', WRITE_RATE: '5' }, expected: { writeRate: 0, registerRate: 0 } },
    { what: 'proxy and queue', argv: ['--trust-proxy', '--hash-queue', '4'], env: { MAX_AVATAR_PIXELS: '1000000' }, expected: { trustProxy: true, hashQueue: 4, maxAvatarPixels: 1_000_000 } },
    { what: 'public url', argv: [], env: { PUBLIC_URL: 'HTTPS://Chat.Example:443/' }, expected: { publicUrl: 'https://chat.example' } },
    { what: 'public url with port', argv: ['--public-url', 'http://127.0.0.1:8080'], env: {}, expected: { publicUrl: 'http://127.0.0.1:8080' } },
  ];
  for (const { what, argv, env, expected } of rows) {
    assert.deepEqual(parseConfig(argv, env), { ...DEFAULT_CONFIG, ...expected }, what);
  }
});

test('a bad value is a ConfigError naming the option', () => {
  const rows = [
    { argv: [], env: { PORT: 'abc' }, message: /PORT/ },
    { argv: ['--port', '70000'], env: {}, message: /--port/ },
    { argv: ['--port'], env: {}, message: /missing value/ },
    { argv: ['--scrypt-n', '1000'], env: {}, message: /power of two/ },
    { argv: ['--base-path', 'api'], env: {}, message: /--base-path/ },
    { argv: ['--nope'], env: {}, message: /unknown option --nope/ },
    { argv: [], env: { QUIET: 'maybe' }, message: /QUIET/ },
    { argv: [], env: { SESSION_TTL: '100', SESSION_MAX_AGE: '10' }, message: /session-ttl/ },
    { argv: [], env: { HOST: '' }, message: /HOST/ },
    { argv: ['--write-rate', '-1'], env: {}, message: /--write-rate/ },
    { argv: [], env: { HASH_QUEUE: '0' }, message: /HASH_QUEUE/ },
    { argv: ['--public-url', 'https://chat.example/app'], env: {}, message: /--public-url: expected an origin/ },
    { argv: [], env: { PUBLIC_URL: 'ftp://chat.example' }, message: /PUBLIC_URL/ },
    { argv: [], env: { PUBLIC_URL: 'not a url' }, message: /PUBLIC_URL/ },
    { argv: ['--public-url=https://user:pw@chat.example'], env: {}, message: /--public-url/ },
  ];
  for (const { argv, env, message } of rows) {
    assert.throws(() => parseConfig(argv, env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('--help lists every option with its environment variable', () => {
  const help = formatHelp();
  for (const option of OPTIONS) {
    assert.ok(help.includes(option.flag) && help.includes(option.env), option.flag);
  }
});

test('the executable exits 2 with a clear message for PORT=abc, and prints --help and --version', () => {
  const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, PORT: 'abc' }, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /PORT: expected an integer from 0 to 65535, got "abc"/);
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: chat-server/);
  const version = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0);
  assert.equal(version.stdout, `${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version} (Node.js ${process.version})\n`);
});
