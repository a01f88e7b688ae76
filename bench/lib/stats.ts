export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** One line of the results table. */
export interface Row {
  scenario: string;
  measured: string;
  value: number;
  target: string;
  pass: boolean;
  detail: Record<string, number | string>;
}

/** Runs `a` and `b` alternately `n` times each (interleaved, so drift hits both alike). */
export async function interleaved<A, B = A>(n: number, a: () => Promise<A>, b: () => Promise<B>): Promise<{ a: A[]; b: B[] }> {
  const out = { a: [] as A[], b: [] as B[] };
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      out.a.push(await a());
      out.b.push(await b());
    } else {
      out.b.push(await b());
      out.a.push(await a());
    }
  }
  return out;
}
