import { readFileSync } from 'node:fs';

/**
 * CPU milliseconds (user + system) a process has used so far, from /proc (Linux, where the
 * benchmarks run); undefined elsewhere. Fields 14 and 15 of /proc/PID/stat, in clock ticks of
 * 10 ms (USER_HZ 100).
 */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Runs `work`, and answers its result with the CPU milliseconds each of `pids` used meanwhile. */
export async function cpuDuring<T>(pids: readonly number[], work: () => Promise<T>): Promise<{ result: T; cpu: number[] }> {
  const before = pids.map((p) => cpuMs(p) ?? Number.NaN);
  const result = await work();
  return { result, cpu: pids.map((p, i) => (cpuMs(p) ?? Number.NaN) - before[i]!) };
}
