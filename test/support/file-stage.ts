/**
 * The set-up most e2e files share: one stage for the file, started before its tests and closed
 * after them, and tenants made on it. Each answers a stand-in that forwards to the real object once
 * the file's beforeAll has made it, so a file writes `const s = useStage()` and
 * `const [a, b] = useTenants(s, 2)` at its top and uses `s.dash(a.key, ...)` in its tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { startStage, type Stage } from './stage';

export type Tenant = Awaited<ReturnType<Stage['tenant']>>;

/** Forwards to what `current()` holds; using it before the file's beforeAll made it is an error that says so. */
function standIn<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, prop) {
      const real = current();
      if (!real) throw new Error(`${what} is made in the file's beforeAll: use it inside a test or a hook`);
      const value = Reflect.get(real, prop, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
}

/** The file's stage (startStage with `opts`). */
export function useStage(opts: Parameters<typeof startStage>[0] = {}): Stage {
  let stage: Stage | undefined;
  beforeAll(async () => {
    stage = await startStage(opts);
  });
  afterAll(async () => {
    await stage?.close();
  });
  return standIn('the stage', () => stage);
}

type Tuple<N extends number, T, R extends T[] = []> = R['length'] extends N ? R : Tuple<N, T, [...R, T]>;

/** `n` tenants of `s` (an organisation and a dashboard user each), made in order after the stage started. */
export function useTenants<N extends 1 | 2 | 3>(s: Stage, n: N): Tuple<N, Tenant> {
  const made: Tenant[] = [];
  beforeAll(async () => {
    for (let i = 0; i < n; i++) made.push(await s.tenant());
  });
  return Array.from({ length: n }, (_, i) => standIn(`tenant ${i + 1}`, () => made[i])) as Tuple<N, Tenant>;
}
