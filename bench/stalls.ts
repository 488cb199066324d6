// Reads a CPU profile (bench/soak.bench.ts with SOAK_PROFILE_DIR) and lists the longest stretches the main thread
// spent in one stack without returning to the loop: what stalls the event loop, by the frames at the top of our code.
//   node --import tsx bench/stalls.ts <file.cpuprofile> [minMs]
import { readFileSync } from 'node:fs';

interface ProfileNode { id: number; parent?: number; callFrame: { functionName: string; url: string }; children?: number[] }
const [file, minText = '20'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;
const stack = (id: number): string[] => {
  const frames: string[] = [];
  for (let node = byId.get(id); node; node = node.parent === undefined ? undefined : byId.get(node.parent)) {
    frames.push(`${node.callFrame.functionName || '(anon)'}@${node.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}`);
  }
  return frames;
};
// A busy stretch: consecutive samples not idle; a sample whose delta is far above the interval means the thread
// was not scheduled (machine load) or the profiler could not interrupt (native code): both are reported apart.
const idle = (id: number): boolean => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName);
const stretches: { ms: number; top: Map<string, number>; longestGapMs: number }[] = [];
let current: { ms: number; top: Map<string, number>; longestGapMs: number } | undefined;
for (let i = 0; i < profile.samples.length; i += 1) {
  const id = profile.samples[i]!;
  const deltaMs = (profile.timeDeltas[i] ?? 0) / 1000;
  if (idle(id)) {
    if (current && current.ms >= Number(minText)) stretches.push(current);
    current = undefined;
    continue;
  }
  current ??= { ms: 0, top: new Map(), longestGapMs: 0 };
  current.ms += deltaMs;
  current.longestGapMs = Math.max(current.longestGapMs, deltaMs);
  const ours = stack(id).filter((frame) => frame.includes('src/') || frame.includes('garbage') || frame.startsWith('(')).slice(0, 3).join(' < ') || stack(id)[0]!;
  current.top.set(ours, (current.top.get(ours) ?? 0) + deltaMs);
}
stretches.sort((a, b) => b.ms - a.ms);
for (const stretch of stretches.slice(0, 15)) {
  const top = [...stretch.top].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([frames, ms]) => `${ms.toFixed(0)} ms ${frames}`).join('\n      ');
  console.log(`${stretch.ms.toFixed(0)} ms busy (longest gap between samples ${stretch.longestGapMs.toFixed(0)} ms):\n      ${top}`);
}
