// Flags and environment variables, with defaults, validation and --help.
import { availableParallelism } from 'node:os';
export interface Config {
  port: number;
  host: string;
  db: string;
  basePath: string;
  sessionTtl: number;
  sessionMaxAge: number;
  scryptN: number;
  hashConcurrency: number;
  maxBodyBytes: number;
  maxAvatarBytes: number;
  /** docs/protocol.md §15.5: the largest file, the most files on one message, and the bytes one user may keep uploaded. */
  maxAttachmentBytes: number;
  maxAttachments: number;
  attachmentQuota: number;
  secureCookies: boolean;
  quiet: boolean;
  loginMaxFailures: number;
  loginWindow: number;
  /** Password checks per login from one address per minute (an address gets 10x); 0: no limit. */
  loginRate: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  /** null: no metrics listener. */
  metricsPort: number | null;
  /** Browser origins allowed to call the API (CORS), e.g. https://app.example. */
  corsOrigins: string[];
  trace: boolean;
  logFormat: 'text' | 'json';
  eventRetention: number;
  /** Seconds a finished outbound delivery (a webhook's, a push) is kept after it was queued (docs/integrations.md). */
  deliveryRetention: number;
  /** null: sized from the process's file limit at start (http/descriptors.ts). */
  maxStreams: number | null;
  workers: number;
  writeRate: number;
  registerRate: number;
  trustProxy: boolean;
  hashQueue: number;
  maxAvatarPixels: number;
  publicUrl: string;
  /** PostgreSQL connections per server process (--db-pool); SQLite has no pool. */
  dbPool: number;
  /** Who may sign up (docs/protocol.md §13): anyone, people with an invite, or only those an admin creates. */
  registration: Registration;
  /** Members may invite too (never to a role above their own); off: only admins invite. */
  membersInvite: boolean;
  /** docs/protocol.md §16.6: webhooks may go to http:// URLs and loopback or private addresses (tests, trusted networks). */
  webhookAllowPrivate: boolean;
  /** Web Push (docs/push.md): the operator's contact in every VAPID token; '' sends no push. */
  pushSubject: string;
  pushNoContent: boolean;
  pushAllowInsecure: boolean;
  /** docs/protocol.md §16.2: members may create bots too (false: administrators only). */
  membersCreateBots: boolean;
}

export type Registration = 'open' | 'invite' | 'closed';

type Kind = 'port' | 'count' | 'seconds' | 'bytes' | 'text' | 'path' | 'flag' | 'power-of-two' | 'workers' | 'rate' | 'url' | 'origins' | 'log-format' | 'registration' | 'push-subject';

interface OptionSpec {
  key: keyof Config;
  flag: string;
  env: string;
  kind: Kind;
  help: string;
  /** What --help says of a null default that is worked out at start. */
  auto?: string;
}

const MIB = 1024 * 1024;

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  port: 8080,
  host: '127.0.0.1',
  db: './data/chat.db',
  basePath: '',
  sessionTtl: 86_400,
  sessionMaxAge: 30 * 86_400,
  scryptN: 2 ** 17,
  // One core stays free for serving requests while logins hash on the others.
  hashConcurrency: Math.max(1, availableParallelism() - 1),
  maxBodyBytes: MIB,
  maxAvatarBytes: 5 * MIB,
  maxAttachmentBytes: 25 * MIB,
  maxAttachments: 10,
  attachmentQuota: 1024 * MIB,
  secureCookies: false,
  quiet: false,
  loginMaxFailures: 10,
  loginWindow: 900,
  loginRate: 10,
  headersTimeout: 10,
  requestTimeout: 30,
  keepAliveTimeout: 5,
  metricsPort: null,
  corsOrigins: [],
  trace: false,
  logFormat: 'text',
  eventRetention: 86_400,
  deliveryRetention: 30 * 86_400,
  maxStreams: null,
  workers: 1,
  writeRate: 600,
  registerRate: 20,
  trustProxy: false,
  hashQueue: 16,
  maxAvatarPixels: 40_000_000,
  // '' means the listen address (http://host:port).
  publicUrl: '',
  dbPool: 10,
  registration: 'invite',
  membersInvite: true,
  webhookAllowPrivate: false,
  pushSubject: '',
  pushNoContent: false,
  pushAllowInsecure: false,
  membersCreateBots: true,
});

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'port', flag: '--port', env: 'PORT', kind: 'port', help: 'TCP port to listen on (0: any free port)' },
  { key: 'host', flag: '--host', env: 'HOST', kind: 'text', help: 'address to listen on' },
  { key: 'db', flag: '--db', env: 'DB_PATH', kind: 'path', help: 'SQLite database file, or :memory:, or a postgres:// URL (env DATABASE_URL wins over DB_PATH)' },
  { key: 'dbPool', flag: '--db-pool', env: 'DB_POOL', kind: 'count', help: 'PostgreSQL connections per server process (SQLite: ignored)' },
  { key: 'basePath', flag: '--base-path', env: 'BASE_PATH', kind: 'path', help: 'mount every route under this prefix, e.g. /api' },
  { key: 'sessionTtl', flag: '--session-ttl', env: 'SESSION_TTL', kind: 'seconds', help: 'idle lifetime of a session, seconds' },
  { key: 'sessionMaxAge', flag: '--session-max-age', env: 'SESSION_MAX_AGE', kind: 'seconds', help: 'absolute lifetime of a session from login, seconds' },
  { key: 'scryptN', flag: '--scrypt-n', env: 'SCRYPT_N', kind: 'power-of-two', help: 'scrypt cost N for new password hashes (power of two)' },
  { key: 'hashConcurrency', flag: '--hash-concurrency', env: 'HASH_CONCURRENCY', kind: 'count', help: 'password hashes computed at once' },
  { key: 'maxBodyBytes', flag: '--max-body-bytes', env: 'MAX_BODY_BYTES', kind: 'bytes', help: 'largest request body, bytes' },
  { key: 'maxAvatarBytes', flag: '--max-avatar-bytes', env: 'MAX_AVATAR_BYTES', kind: 'bytes', help: 'largest avatar image, bytes' },
  { key: 'maxAttachmentBytes', flag: '--max-attachment-bytes', env: 'MAX_ATTACHMENT_BYTES', kind: 'bytes', help: 'largest file attached to a message, bytes' },
  { key: 'maxAttachments', flag: '--max-attachments', env: 'MAX_ATTACHMENTS', kind: 'count', help: 'most files on one message' },
  { key: 'attachmentQuota', flag: '--attachment-quota', env: 'ATTACHMENT_QUOTA', kind: 'bytes', help: 'bytes of files one user may have uploaded at once' },
  { key: 'secureCookies', flag: '--secure-cookies', env: 'SECURE_COOKIES', kind: 'flag', help: 'mark the session cookie Secure (behind HTTPS)' },
  { key: 'quiet', flag: '--quiet', env: 'QUIET', kind: 'flag', help: 'no access log' },
  { key: 'loginMaxFailures', flag: '--login-max-failures', env: 'LOGIN_MAX_FAILURES', kind: 'count', help: 'failed logins allowed per login and per address in the window' },
  { key: 'loginWindow', flag: '--login-window', env: 'LOGIN_WINDOW', kind: 'seconds', help: 'window of the failed-login limit, seconds' },
  { key: 'loginRate', flag: '--login-rate', env: 'LOGIN_RATE', kind: 'rate', help: 'password checks (right or wrong) per minute per login from one address; an address gets 10x (0: no limit)' },
  { key: 'headersTimeout', flag: '--headers-timeout', env: 'HEADERS_TIMEOUT', kind: 'seconds', help: 'time a client has to send its headers, seconds' },
  { key: 'requestTimeout', flag: '--request-timeout', env: 'REQUEST_TIMEOUT', kind: 'seconds', help: 'time a client has to send a whole request, seconds' },
  { key: 'keepAliveTimeout', flag: '--keep-alive-timeout', env: 'KEEP_ALIVE_TIMEOUT', kind: 'seconds', help: 'idle keep-alive connection lifetime, seconds' },
  { key: 'metricsPort', flag: '--metrics-port', env: 'METRICS_PORT', kind: 'port', help: 'serve GET /metrics (Prometheus) on this second port (0: any free port)' },
  { key: 'corsOrigins', flag: '--cors-origins', env: 'CORS_ORIGINS', kind: 'origins', help: 'comma-separated browser origins allowed to call the API (CORS)' },
  { key: 'trace', flag: '--trace', env: 'TRACE', kind: 'flag', help: 'print every exchange as raw HTTP/1.1 to stderr, secrets redacted' },
  { key: 'logFormat', flag: '--log-format', env: 'LOG_FORMAT', kind: 'log-format', help: 'access log lines: text or json (one object a line)' },
  { key: 'eventRetention', flag: '--event-retention', env: 'EVENT_RETENTION', kind: 'seconds', help: 'how long the event log keeps events, seconds' },
  { key: 'deliveryRetention', flag: '--delivery-retention', env: 'DELIVERY_RETENTION', kind: 'seconds', help: 'how long finished webhook and push deliveries are kept, seconds' },
  { key: 'maxStreams', flag: '--max-streams', env: 'MAX_STREAMS', kind: 'count', help: 'open event streams the server process holds at most', auto: 'nine tenths of what the file limit (ulimit -n) leaves' },
  { key: 'workers', flag: '--workers', env: 'WORKERS', kind: 'workers', help: 'server processes on one port and one database (auto: one per core)' },
  { key: 'writeRate', flag: '--write-rate', env: 'WRITE_RATE', kind: 'rate', help: 'writes per minute per signed-in user (0: no limit)' },
  { key: 'registerRate', flag: '--register-rate', env: 'REGISTER_RATE', kind: 'rate', help: 'registrations per hour per client address (0: no limit)' },
  { key: 'trustProxy', flag: '--trust-proxy', env: 'TRUST_PROXY', kind: 'flag', help: 'take the client address from the last X-Forwarded-For entry (behind one reverse proxy)' },
  { key: 'hashQueue', flag: '--hash-queue', env: 'HASH_QUEUE', kind: 'count', help: 'password hashes that may wait for a free hasher (more: 503); one client address may hold a quarter (more: 429)' },
  { key: 'maxAvatarPixels', flag: '--max-avatar-pixels', env: 'MAX_AVATAR_PIXELS', kind: 'count', help: 'largest avatar image, width x height in pixels' },
  { key: 'registration', flag: '--registration', env: 'REGISTRATION', kind: 'registration', help: 'who may sign up: open (anyone), invite (with an invite code; the first account needs none) or closed (only admins create accounts)' },
  { key: 'membersInvite', flag: '--members-invite', env: 'MEMBERS_INVITE', kind: 'flag', help: 'members may create invites too, never to a role above their own (--members-invite=false: admins only)' },
  { key: 'membersCreateBots', flag: '--members-create-bots', env: 'MEMBERS_CREATE_BOTS', kind: 'flag', help: 'members may create bots too (--members-create-bots=false: admins only)' },
  { key: 'webhookAllowPrivate', flag: '--webhook-allow-private', env: 'WEBHOOK_ALLOW_PRIVATE', kind: 'flag', help: 'outgoing webhooks may use http:// and reach loopback and private addresses (tests, trusted networks only)' },
  { key: 'pushSubject', flag: '--push-subject', env: 'PUSH_SUBJECT', kind: 'push-subject', help: 'Web Push: a mailto: or https: contact push services may reach you at (unset: no push is sent)' },
  { key: 'pushNoContent', flag: '--push-no-content', env: 'PUSH_NO_CONTENT', kind: 'flag', help: 'Web Push: say who wrote in which chat, never the text' },
  { key: 'pushAllowInsecure', flag: '--push-allow-insecure', env: 'PUSH_ALLOW_INSECURE', kind: 'flag', help: 'Web Push endpoints may be http:// and on loopback or private addresses (tests only)' },
  { key: 'publicUrl', flag: '--public-url', env: 'PUBLIC_URL', kind: 'url', help: 'origin browsers use, e.g. https://chat.example (default: the listen address)' },
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** An http(s) origin with no path, query or credentials: what browsers put in Origin (RFC 6454 §6.1). */
function parsePublicUrl(raw: string, fail: (expected: string) => never): string {
  const expected = 'an origin such as https://chat.example (no path: use --base-path)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(expected);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || url.pathname !== '/') fail(expected);
  return url.origin;
}

function parseValue(spec: OptionSpec, raw: string, source: string): Config[keyof Config] {
  const fail = (expected: string): never => {
    throw new ConfigError(`${source}: expected ${expected}, got ${JSON.stringify(raw)}`);
  };
  const integer = (min: number, max: number): number => {
    if (!/^\d{1,12}$/.test(raw)) fail(`an integer from ${min} to ${max}`);
    const value = Number(raw);
    if (value < min || value > max) fail(`an integer from ${min} to ${max}`);
    return value;
  };
  switch (spec.kind) {
    case 'port': return integer(0, 65_535);
    case 'count': return integer(1, spec.key === 'maxAvatarPixels' ? 1e12 : 1_000_000);
    case 'rate': return integer(0, 1_000_000);
    case 'url': return parsePublicUrl(raw, fail);
    case 'seconds': return integer(1, 10 * 365 * 86_400);
    case 'bytes': return integer(1, 2 ** 31 - 1);
    case 'power-of-two': {
      const value = integer(2, 2 ** 24);
      if ((value & (value - 1)) !== 0) fail('a power of two');
      return value;
    }
    case 'workers':
      // auto: one process per core this process may use.
      if (raw === 'auto') return availableParallelism();
      if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 256) fail('auto or an integer from 1 to 256');
      return Number(raw);
    case 'flag':
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off|)$/i.test(raw)) return false;
      return fail('true or false');
    case 'text':
      if (raw === '') fail('a non-empty value');
      return raw;
    case 'log-format':
      if (raw !== 'text' && raw !== 'json') fail('text or json');
      return raw;
    case 'push-subject':
      // RFC 8292 §2.1: a mailto: or https: URI.
      if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/.test(raw)) fail('a mailto: address or an https: URL');
      return raw;
    case 'registration':
      if (raw !== 'open' && raw !== 'invite' && raw !== 'closed') fail('open, invite or closed');
      return raw;
    case 'origins': {
      if (raw.trim() === '') return [];
      // An origin is scheme://host[:port] with nothing after it (RFC 6454 §6.2), compared as the browser sends it.
      return raw.split(',').map((item) => item.trim()).map((origin) => {
        let parsed: URL | undefined;
        try {
          parsed = new URL(origin);
        } catch {
          fail('origins such as https://app.example (comma-separated)');
        }
        if (parsed!.origin !== origin || !/^https?:$/.test(parsed!.protocol)) fail(`origins such as https://app.example (scheme://host[:port], no path); ${JSON.stringify(origin)} is not one`);
        return origin;
      });
    }
    case 'path':
      if (spec.key === 'basePath') {
        if (raw === '' || raw === '/') return '';
        if (!/^(\/[a-z0-9._~-]+)+$/i.test(raw)) fail('a path such as /api');
        return raw;
      }
      if (raw === '') fail('a non-empty path');
      return raw;
  }
}

/** Reads flags (which win) and environment variables over the defaults. Throws ConfigError on a bad value. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Config {
  const config: Config = { ...DEFAULT_CONFIG };
  const assign = (spec: OptionSpec, raw: string, source: string): void => {
    (config as unknown as Record<string, unknown>)[spec.key] = parseValue(spec, raw, source);
  };
  for (const spec of OPTIONS) {
    const raw = env[spec.env];
    if (raw !== undefined) assign(spec, raw, spec.env);
  }
  // docs/protocol.md §12.2: DATABASE_URL (the usual name of a PostgreSQL URL) wins over DB_PATH; a --db flag wins over both.
  if (env['DATABASE_URL'] !== undefined) assign(OPTIONS.find((spec) => spec.key === 'db')!, env['DATABASE_URL'], 'DATABASE_URL');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const spec = OPTIONS.find((option) => option.flag === name);
    if (!spec) throw new ConfigError(`unknown option ${name} (see --help)`);
    if (spec.kind === 'flag') {
      assign(spec, inline ?? 'true', spec.flag);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${spec.flag}: missing value`);
    assign(spec, value, spec.flag);
  }
  if (config.sessionTtl > config.sessionMaxAge) {
    throw new ConfigError('--session-ttl must not exceed --session-max-age');
  }
  if (config.workers > 1 && config.db === ':memory:') {
    throw new ConfigError('--workers above 1 needs a database file: each process would get its own :memory: database');
  }
  return config;
}
