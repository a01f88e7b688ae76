/** How a plan's limits read on the portal's pages. */

/** Seconds as the largest whole unit: 3600 -> "hour", 7200 -> "2 hours". */
function period(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds >= size && seconds % size === 0) ?? [1, 'second'];
  const n = seconds / size;
  return n === 1 ? name : `${n} ${name}s`;
}

/** A rate of `rate` requests per `per` seconds; none when the policy sets none. */
export const rateText = (rate: number, per: number): string => (rate > 0 && per > 0 ? `${rate} requests per ${period(per)}` : 'No rate limit');

/** A quota of `max` requests renewed every `renewal` seconds; -1 (or none) is unlimited. */
export const quotaText = (max: number, renewal: number): string =>
  max > 0 ? `${max} requests per ${renewal > 0 ? period(renewal) : 'key (never renewed)'}` : 'Unlimited quota';
