// `chat-server --help`: the subcommands, then every option with its environment variable and default, in columns.
import { DEFAULT_CONFIG, OPTIONS, type Config } from './config.ts';

function defaultText(value: Config[keyof Config]): string {
  if (value === null) return 'off';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return JSON.stringify(value);
}

export function formatHelp(): string {
  const rows: [string, string][] = [
    ...OPTIONS.map((spec): [string, string] => [
      `${spec.flag}${spec.kind === 'flag' ? '' : ' <value>'}`,
      `${spec.help} (env ${spec.env}, default ${DEFAULT_CONFIG[spec.key] === null && spec.auto ? spec.auto : defaultText(DEFAULT_CONFIG[spec.key])})`,
    ]),
    ['--help', 'print this help'],
    ['--version', 'print the version, and the version of Node.js running it'],
  ];
  // One column for the descriptions, two spaces past the longest option.
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    'Usage: chat-server [options]',
    '       chat-server backup <file> [--db <path>]   an online copy of the database (see docs/operations.md)',
    '       chat-server admin promote|demote <login> [--db <path or URL>]   change a role on the database directly (recovery)',
    '       chat-server migrate --from <sqlite file> --to <postgres url>   copy a SQLite database into a new PostgreSQL one (see docs/postgres.md)',
    '       chat-server conformance <base-url> [--level …] [--reporter text|junit|json|tap]   audit a server against docs/protocol.md (see docs/conformance.md)',
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    '',
  ].join('\n');
}
