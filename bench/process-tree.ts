// Bench only: CPU time and RSS of a process and all its descendants (a --workers primary and its workers), read from
// /proc, so a server started by its executable is measured from outside, as an operator's tools would.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface TreeSample { cpuMs: number; rssBytes: number; processes: number }

function readStat(pid: number): { ppid: number; cpuTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), in parentheses: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The process and every descendant alive now. */
export function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) (children.get(stat.ppid) ?? children.set(stat.ppid, []).get(stat.ppid)!).push(Number(name));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

export function sampleTree(root: number): TreeSample {
  const pids = treeOf(root);
  let ticks = 0;
  let rss = 0;
  for (const pid of pids) {
    ticks += readStat(pid)?.cpuTicks ?? 0;
    rss += rssOf(pid);
  }
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, rssBytes: rss, processes: pids.length };
}
