import { readFileSync } from 'node:fs';

/**
 * CPU milliseconds (user + system) a process has used so far, from /proc (Linux, where the
 * benchmarks run); undefined elsewhere. Fields 14 and 15 of /proc/PID/stat, in clock ticks of
 * 10 ms (USER_HZ 100).
 */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
