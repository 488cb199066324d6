// The time source every layer reads (tests move a TestClock instead of sleeping); imports nothing of ours.
export interface Clock {
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
