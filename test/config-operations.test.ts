// The operations options: parsed from flags and environment, refused clearly, listed in --help and the README.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_CONFIG, OPTIONS, parseConfig } from '../src/config.ts';
import { formatHelp } from '../src/help.ts';

test('metrics, CORS, trace and log format are off or plain by default and set by flag or environment', () => {
  assert.equal(DEFAULT_CONFIG.metricsPort, null);
  assert.deepEqual(DEFAULT_CONFIG.corsOrigins, []);
  assert.equal(DEFAULT_CONFIG.trace, false);
  assert.equal(DEFAULT_CONFIG.logFormat, 'text');
  const fromFlags = parseConfig(['--metrics-port', '9464', '--trace', '--log-format', 'json', '--cors-origins=https://a.example']);
  assert.deepEqual([fromFlags.metricsPort, fromFlags.trace, fromFlags.logFormat, fromFlags.corsOrigins], [9464, true, 'json', ['https://a.example']]);
  const fromEnv = parseConfig([], { METRICS_PORT: '0', TRACE: 'yes', LOG_FORMAT: 'json', CORS_ORIGINS: 'http://127.0.0.1:5173' });
  assert.deepEqual([fromEnv.metricsPort, fromEnv.trace, fromEnv.logFormat, fromEnv.corsOrigins], [0, true, 'json', ['http://127.0.0.1:5173']]);
});

test('bad operations values are refused with the option named', () => {
  assert.throws(() => parseConfig(['--log-format', 'xml']), /--log-format: expected text or json, got "xml"/);
  assert.throws(() => parseConfig([], { LOG_FORMAT: 'JSON' }), /LOG_FORMAT: expected text or json/);
  assert.throws(() => parseConfig(['--metrics-port', '70000']), /--metrics-port: expected an integer from 0 to 65535/);
  assert.throws(() => parseConfig(['--metrics-port']), /--metrics-port: missing value/);
  assert.throws(() => parseConfig(['--cors-origins', 'https://a.example,']), /--cors-origins: expected origins/);
});

test('--help lists every option in aligned columns, with the backup subcommand', () => {
  const help = formatHelp();
  assert.match(help, /^ {7}chat-server backup <file> \[--db <path>\]/m);
  const optionLines = help.split('\n').filter((line) => line.startsWith('  --'));
  assert.equal(optionLines.length, OPTIONS.length + 2);
  const columns = new Set(optionLines.map((line) => /^ {2}--\S+(?: <value>)? +/.exec(line)![0].length));
  assert.equal(columns.size, 1, 'every description starts in the same column');
  assert.match(help, /--metrics-port <value> +serve GET \/metrics .*default off\)/);
  assert.match(help, /--cors-origins <value> +.*default none\)/);
});

test('the README options table has a row for every option', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const option of OPTIONS) assert.match(readme, new RegExp(`^\\| \`${option.flag}\` \\| \`${option.env}\` \\|`, 'm'), option.flag);
});
