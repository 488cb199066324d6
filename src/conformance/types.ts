// The shapes of the conformance kit (docs/conformance.md): a check, its result, the report and the options of a run.
import type { Exchange } from './http-client.ts';
import type { KitContext } from './context.ts';

/** How deep a check reaches into the protocol: a server may claim core only, or everything. */
export type Level = 'core' | 'events' | 'features' | 'hardening';
export const LEVELS: readonly Level[] = ['core', 'events', 'features', 'hardening'];

export interface Check {
  /** `<level>.<area>.<what>`, stable once published: skip files and docs/protocol.md name checks by it. */
  id: string;
  /** The section of docs/protocol.md whose rule it tests, as `§4.2`. */
  section: string;
  /** The rule, quoted or closely paraphrased from that section. */
  rule: string;
  level: Level;
  run(ctx: KitContext): Promise<void>;
}

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  id: string;
  section: string;
  rule: string;
  level: Level;
  outcome: Outcome;
  durationMs: number;
  /** Why it failed or was skipped. */
  message?: string;
  /** The last requests of a failed check with their answers, shortened. */
  exchanges?: Exchange[];
}

export interface ConformanceReport {
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  counts: Record<Outcome, number>;
}

export interface ConformanceOptions {
  /** The server's base URL, base path included (`http://localhost:8080/api`). */
  baseUrl: string;
  /** Which levels run (default all). */
  levels?: readonly Level[];
  /** Run only checks matching one of these: an id, a prefix ending in `.` or `*`, or a section (`§4`, `§4.2`). */
  only?: readonly string[];
  /** Skip checks matching one of these (same forms as `only`). */
  skip?: readonly string[];
  /** An invite code for sign-up on an invite-only server. */
  invite?: string;
  /** An active admin's bearer token: creates invites (or accounts, on a closed server) and runs the admin checks. */
  adminToken?: string;
  /** How long one check may take, ms (default 20000). */
  checkTimeoutMs?: number;
  /** Called after each check, for progress output. */
  onResult?: (result: CheckResult) => void;
}
