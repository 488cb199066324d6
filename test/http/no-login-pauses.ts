// For tests that count statuses and hashes, not time: the server's own login limits (as its config sets them) without
// the refusal pause and the slow-down, each a real second (src/resources/session/login-limiter.ts).
// test/resources/login-limiter.test.ts proves both pauses with mock timers.
import type { RunningServer } from '../../src/index.ts';
import { LoginLimiter } from '../../src/resources/session/login-limiter.ts';

export function dropLoginPauses(server: RunningServer): void {
  const { config, clock, storage } = server.app.services;
  server.app.services.loginLimiter = new LoginLimiter({
    maxFailures: config.loginMaxFailures, windowMs: config.loginWindow * 1000, checkRate: config.loginRate,
    refusalPauseMs: 0, slowDownMs: 0, clock, store: storage.rateCounters,
  });
}
