/** Loads data for a page, again when `deps` change or `reload()` is called; a stale answer is dropped. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asServiceError, type ServiceError } from '../api/errors';

export interface Resource<T> {
  data: T | undefined;
  error: ServiceError | undefined;
  loading: boolean;
  reload(): void;
}

export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ServiceError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === latest.current && setState({ data, loading: false }),
      (e: unknown) => mine === latest.current && setState({ error: asServiceError(e), loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload } as Resource<T>;
}
