import autocannon from 'autocannon';

export type Timed = autocannon.Result & { seconds: number };

/**
 * An autocannon run and how long it took from its start to its last answer. autocannon's own
 * `duration` (and its start and finish) end on its once-a-second tick: at these rates a step of
 * 12-20 %, which made the throughput ratios jump between 0.5, 0.6, 0.71 and 0.86 from run to run.
 */
export function timed(opts: autocannon.Options): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve({ ...result, seconds: (last - started) / 1000 })));
    instance.on('response', () => {
      last = performance.now();
    });
  });
}
