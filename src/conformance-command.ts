// `chat-server conformance <base-url>`: runs the conformance kit against any server speaking docs/protocol.md and
// prints its report (docs/conformance.md). Exit 0 when every check selected passed, 1 on any failure, 2 on bad usage.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { closeConnections, formatJson, formatJunit, formatTap, formatText, LEVELS, readSkipList, runConformance, sendRequest, type ConformanceReport, type Level, type ReporterName } from './conformance/index.ts';

const USAGE = 'usage: chat-server conformance <base-url> [--level core,events,features,hardening] [--only ID] [--skip ID] '
  + '[--skip-file FILE] [--reporter text|junit|json|tap] [--output FILE] [--invite CODE] [--admin-token TOKEN]';

const REPORTERS: Record<ReporterName, (report: ConformanceReport) => string> = { text: formatText, junit: formatJunit, json: formatJson, tap: formatTap };

class UsageError extends Error {}

/** Comma-separated values of a repeatable option, flattened. */
function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
}

function parseCommand(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      level: { type: 'string', multiple: true }, only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true },
      'skip-file': { type: 'string', multiple: true }, reporter: { type: 'string', default: 'text' }, output: { type: 'string' },
      invite: { type: 'string' }, 'admin-token': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  let baseUrl: URL;
  try {
    baseUrl = new URL(positionals[0]!);
  } catch {
    throw new UsageError(`not a URL: ${positionals[0]}`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new UsageError(`not an http or https URL: ${positionals[0]}`);
  const levels = splitList(values.level);
  const unknown = levels.filter((level) => !LEVELS.includes(level as Level));
  if (unknown.length > 0) throw new UsageError(`unknown level ${unknown.join(', ')}: the levels are ${LEVELS.join(', ')}`);
  if (!(values.reporter! in REPORTERS)) throw new UsageError(`unknown reporter ${values.reporter}: text, junit, json or tap`);
  const skipFiles = (values['skip-file'] ?? []).flatMap((file) => {
    try {
      return readSkipList(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read the skip file ${file}: ${(error as Error).message}`);
    }
  });
  return {
    baseUrl: baseUrl.href.replace(/\/$/, ''), levels: levels.length > 0 ? levels as Level[] : LEVELS, only: splitList(values.only),
    skip: [...splitList(values.skip), ...skipFiles], reporter: values.reporter as ReporterName, output: values.output,
    invite: values.invite, adminToken: values['admin-token'],
  };
}

/** Runs the subcommand; answers the exit code. */
export async function runConformanceCommand(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    process.stderr.write(`chat-server conformance: ${error.message}\n`);
    return 2;
  }
  const reachable = await sendRequest({ method: 'GET', url: new URL(`${command.baseUrl}/`) }, () => undefined).then(() => true, (error: Error) => {
    process.stderr.write(`chat-server conformance: cannot reach ${command.baseUrl}: ${error.message}\n`);
    return false;
  });
  closeConnections();
  if (!reachable) return 2;
  const report = await runConformance({
    baseUrl: command.baseUrl, levels: command.levels, only: command.only, skip: command.skip,
    ...(command.invite ? { invite: command.invite } : {}), ...(command.adminToken ? { adminToken: command.adminToken } : {}),
    onResult: (result) => {
      if (command.output !== undefined || command.reporter !== 'text') process.stderr.write(result.outcome === 'fail' ? 'F' : result.outcome === 'skip' ? 's' : '.');
    },
  });
  const text = REPORTERS[command.reporter](report);
  if (command.output !== undefined) {
    writeFileSync(command.output, text);
    const { pass, fail, skip } = report.counts;
    process.stdout.write(`\n${pass} passed, ${fail} failed, ${skip} skipped; the ${command.reporter} report is in ${command.output}\n`);
  } else {
    if (command.reporter !== 'text') process.stderr.write('\n');
    process.stdout.write(text);
  }
  return report.counts.fail > 0 ? 1 : 0;
}
