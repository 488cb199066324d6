// The README's curl quickstart, read from README.md itself and run in bash against a real server: every answer as shown.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { withServer } from './http/client.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// The address the README uses; the test points it at its own server.
const README_API = 'http://127.0.0.1:8080';

export interface Step {
  command: string;
  /** The `#>` lines after the command: what it prints, `…` standing for any text. */
  expected: string[];
}

export interface Block {
  /** `quickstart`, or `quickstart: pending <reason>` for a block that waits on a feature still being built. */
  marker: string;
  steps: Step[];
}

/**
 * The ```sh blocks that follow a `<!-- quickstart... -->` comment. In a block, `#>` lines belong to the
 * command before them; other comments and blank lines separate steps; a command may continue over lines
 * ending in a backslash.
 */
export function readQuickstart(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/<!-- (quickstart(?:: [^>]*)?) -->\n```sh\n([\s\S]*?)\n```/g)) {
    const steps: Step[] = [];
    let continuing = false;
    for (const line of match[2]!.split('\n')) {
      if (line.startsWith('#>')) {
        steps.at(-1)!.expected.push(line.slice(2).replace(/^ /, ''));
        continue;
      }
      if (continuing) {
        steps.at(-1)!.command += `\n${line}`;
      } else if (line.trim() !== '' && !line.startsWith('#')) {
        steps.push({ command: line, expected: [] });
      }
      continuing = line.endsWith('\\');
    }
    blocks.push({ marker: match[1]!, steps });
  }
  return blocks;
}

/** `…` stands for any text within one line; everything else is literal. */
function lineMatches(expected: string, actual: string): boolean {
  const pattern = expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** One bash process for the whole quickstart, so variables and functions carry from step to step. */
class Shell {
  private readonly child: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private steps = 0;
  private waiting: (() => void) | undefined;

  constructor(cwd: string) {
    const path = `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`;
    // The shell's node (the json helper) is not measured: NODE_V8_COVERAGE set empty is off.
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { ...process.env, NODE_V8_COVERAGE: '', PATH: path, LC_ALL: 'C.UTF-8' } });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
      this.waiting?.();
    });
    this.child.stderr.on('data', (chunk: Buffer) => { this.stderr += chunk.toString('utf8'); });
  }

  /** Runs one command to its end: what it printed (trailing line breaks and CRs dropped), stderr and its status. */
  async run(command: string): Promise<{ output: string; errors: string; status: number }> {
    const marker = `\u001eSTEP${++this.steps}`;
    this.stdout = '';
    this.stderr = '';
    this.child.stdin.write(`${command}\nprintf '\\n${marker} %d\\n' $?\n`);
    const end = new RegExp(`\\n${marker} (\\d+)\\n$`);
    while (!end.test(this.stdout)) await new Promise<void>((resolve) => { this.waiting = resolve; });
    const status = Number(end.exec(this.stdout)![1]);
    const output = this.stdout.replace(end, '').replace(/\r/g, '').replace(/\n+$/, '');
    return { output, errors: this.stderr, status };
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

test('readQuickstart splits blocks into commands and what they print', () => {
  const markdown = [
    'text', '<!-- quickstart -->', '```sh', 'A=1', '# a comment', 'echo "$A" \\', '  two', '#> 1 two', '#>', '#> …', '```',
    '<!-- quickstart: pending /events -->', '```sh', 'curl -N x', '#> retry: 3000', '```', '```sh', 'not marked', '```',
  ].join('\n');
  assert.deepEqual(readQuickstart(markdown), [
    { marker: 'quickstart', steps: [{ command: 'A=1', expected: [] }, { command: 'echo "$A" \\\n  two', expected: ['1 two', '', '…'] }] },
    { marker: 'quickstart: pending /events', steps: [{ command: 'curl -N x', expected: ['retry: 3000'] }] },
  ]);
  assert.ok(lineMatches('{"id":"…","login":"alice",…}', '{"id":"01J","login":"alice","avatar":null}'));
  assert.ok(!lineMatches('{"id":"…","login":"alice"}', '{"id":"01J","login":"bob"}'));
  assert.ok(!lineMatches('a.c', 'abc'), 'only … is a wildcard');
});

test('a streaming command is read line by line until it printed what the README shows, then stopped', async (t) => {
  const { createServer } = await import('node:http');
  const sse = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('retry: 3000\n\nid: 7\nevent: ready\ndata: {"lastEventId":"7"}\n\n');
  });
  await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'chat-quickstart-'));
  const shell = new Shell(dir);
  t.after(() => {
    shell.close();
    sse.closeAllConnections();
    sse.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { port } = sse.address() as { port: number };
  const read = await runStreaming(shell, `curl -N http://127.0.0.1:${port}/events -H 'Accept: text/event-stream'`, 5);
  assert.deepEqual(read.output.split('\n'), ['retry: 3000', '', 'id: 7', 'event: ready', 'data: {"lastEventId":"7"}']);
});

// A block marked `<!-- quickstart: pending <reason> -->` is shown in the README but not run yet: listed
// here as a todo. To run it, change its marker to `<!-- quickstart -->`.
for (const block of readQuickstart(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter((candidate) => candidate.marker !== 'quickstart')) {
  test.todo(`README ${block.marker}: ${block.steps.map((step) => step.command).join('; ')}`);
}

test('the README quickstart runs as written and every command prints what the README shows', { timeout: 120_000 }, async (t) => {
  const blocks = readQuickstart(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const runnable = blocks.filter((block) => block.marker === 'quickstart');
  const steps = runnable.flatMap((block) => block.steps);
  // The quickstart covers what a newcomer does first; dropping a step fails here rather than rotting quietly.
  const script = steps.map((step) => step.command).join('\n');
  for (const needed of ['/users', '/session', '/invites', 'inviteCode', '/chats', '/members/', '/messages', 'replyTo', 'limit=', '/search?q=', '--data-binary @', '/avatar']) {
    assert.ok(script.includes(needed), `the quickstart shows ${needed}`);
  }
  const events = blocks.flatMap((block) => block.steps).filter((step) => step.command.includes('curl -N'));
  assert.equal(events.length, 1, 'the quickstart follows events with curl -N');

  // Sign-up as `make run` serves it: the default registration mode (invite), not the tests' open one.
  const server = await withServer(t, { registration: DEFAULT_CONFIG.registration });
  const dir = mkdtempSync(join(tmpdir(), 'chat-quickstart-'));
  const shell = new Shell(dir);
  t.after(() => {
    shell.close();
    rmSync(dir, { recursive: true, force: true });
  });
  for (const step of steps) {
    const command = step.command.replaceAll(README_API, server.url);
    const streaming = /\bcurl -N\b/.test(command);
    const { output, errors, status } = streaming ? await runStreaming(shell, command, step.expected.length) : await shell.run(command);
    const context = `\n$ ${step.command}\n${output}\n${errors}`;
    assert.equal(status, 0, `exit status${context}`);
    const lines = output === '' ? [] : output.split('\n');
    if (streaming) lines.splice(step.expected.length);
    assert.equal(lines.length, step.expected.length, `number of lines printed${context}`);
    step.expected.forEach((expected, i) => assert.ok(lineMatches(expected, lines[i]!), `line ${i + 1}: expected ${expected}${context}`));
  }
});

/**
 * A stream never ends by itself: it runs in the background into a FIFO, and `head` reads as many lines
 * as the README shows (waiting for them, no polling); then the stream is stopped.
 */
async function runStreaming(shell: Shell, command: string, lines: number): Promise<{ output: string; errors: string; status: number }> {
  await shell.run(`rm -f stream.fifo; mkfifo stream.fifo; (${command}) > stream.fifo 2> stream.err & STREAM_PID=$!`);
  const read = await shell.run(`head -n ${lines} stream.fifo`);
  await shell.run('kill $STREAM_PID 2>/dev/null; wait $STREAM_PID 2>/dev/null; rm -f stream.fifo');
  const { output: errors } = await shell.run('cat stream.err');
  return { ...read, errors };
}
