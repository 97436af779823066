import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second on Linux (`getconf CLK_TCK`), the unit of /proc/<pid>/stat times. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in ms, read from /proc: how the throughput
 * benchmark tells which process a generation's cost lands in. NaN where /proc is not there.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const userTicks = Number(fields[11]);
    const systemTicks = Number(fields[12]);
    return ((userTicks + systemTicks) * 1_000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Total CPU ms of several processes. */
export function totalCpuMs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}
