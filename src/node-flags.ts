// The flags the server's own node runs with: `make run` (Makefile, SERVE), the single executable (its SEA
// `execArgv`, scripts/build-binary.ts) and the benchmarks' servers. V8 takes them only when a process starts.

/**
 * A young generation of 32 MiB instead of V8's default, which grows to 128 MiB on a server holding thousands of
 * streams: 91 MiB less resident memory at 10,000 active users, for the same CPU per action (bench/RESULTS.md,
 * "Capacity, second pass"; docs/performance.md, Capacity).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
