/**
 * When a failed webhook delivery is tried again (contract §11): `HOOK_RETRY_SECONDS`, delays in
 * seconds after each failed attempt, comma-separated. After the last delay's attempt fails the
 * delivery is `failed`.
 */
const DEFAULT_RETRY_SECONDS = [10, 60, 300, 1800, 7200, 21600] as const;

/** At most this many retries and this long a delay (a delivery log lives 30 days). */
const MAX_RETRIES = 20;
const MAX_DELAY_SECONDS = 7 * 24 * 3600;

/** The schedule, or an error naming the bad entry (so a typo never silently changes it). */
export function parseRetrySchedule(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_RETRY_SECONDS];
  const entries = value.split(',').map((e) => e.trim());
  const delays = entries.map((e) => (e === '' ? NaN : Number(e)));
  const bad = entries.find((_e, i) => !(Number.isFinite(delays[i]) && delays[i]! >= 0 && delays[i]! <= MAX_DELAY_SECONDS));
  if (bad !== undefined) throw new Error(`HOOK_RETRY_SECONDS: "${bad}" is not a delay in seconds (0..${MAX_DELAY_SECONDS})`);
  if (delays.length > MAX_RETRIES) throw new Error(`HOOK_RETRY_SECONDS: at most ${MAX_RETRIES} delays`);
  return delays;
}

/** Seconds until the next attempt after `attempts` attempts failed, or undefined when the schedule is over. */
export function nextDelay(schedule: readonly number[], attempts: number): number | undefined {
  return schedule[attempts - 1];
}
