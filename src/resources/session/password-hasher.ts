// Password hashing with scrypt: salted, parameters stored with each hash, run off the event loop with a bound.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashBudget, type HashOptions, type HashPriority } from './hash-budget.ts';

export { HashAbortedError, type HashOptions, type HashPriority } from './hash-budget.ts';

const KEY_LENGTH = 32;
const R = 8;
const P = 1;

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export type DeriveKey = (password: string, salt: Buffer, n: number, r: number, p: number) => Promise<Buffer>;

function deriveKey(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  // scrypt needs 128 * N * r * p bytes; Node's default maxmem (32 MiB) is too small for N = 2^17.
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r * p + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Format: scrypt$N$r$p$salt$key, salt and key in base64url. */
function parseHash(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  return { n, r, p, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') };
}

export class PasswordHasher {
  private readonly n: number;
  private readonly derive: DeriveKey;
  private readonly budget: HashBudget;

  /** The budget's options (see HashBudget); `derive` is scrypt unless a test holds the hasher busy. */
  constructor(options: { n: number; concurrency: number; maxQueued?: number; maxPerKey?: number; refusalPauseMs?: number; derive?: DeriveKey }) {
    this.n = options.n;
    this.derive = options.derive ?? deriveKey;
    this.budget = new HashBudget(options);
  }

  /** How many scrypt computations ran: tests show the login limit stops hashing. */
  get hashesComputed(): number {
    return this.budget.hashesComputed;
  }

  /** Hashes waiting for a free slot, per priority. */
  get queued(): Record<HashPriority, number> {
    return this.budget.queued;
  }

  /** Hashes of one key (a client address) running or waiting. */
  heldBy(key: string): number {
    return this.budget.heldBy(key);
  }

  async hash(password: string, options: HashOptions = {}): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.budget.run(() => this.derive(password, salt, this.n, R, P), options);
    return ['scrypt', this.n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /** Checks are interactive work; `options.key` (the client address) gives each address its fair turn. */
  async verify(password: string, stored: string, options: Omit<HashOptions, 'priority'> = {}): Promise<boolean> {
    const parsed = parseHash(stored);
    if (!parsed) return false;
    const key = await this.budget.run(() => this.derive(password, parsed.salt, parsed.n, parsed.r, parsed.p), options);
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  }

  /** For an unknown login: the same work as a real check, so both failures take the same time. */
  async verifyNothing(password: string, options: Omit<HashOptions, 'priority'> = {}): Promise<false> {
    await this.budget.run(() => this.derive(password, randomBytes(16), this.n, R, P), options);
    return false;
  }
}
