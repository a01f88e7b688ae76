/**
 * UPSTREAM_ALLOWED_HOSTS as the check a dashboard import or a streams patch runs on the upstream
 * it would store; none when unset. It is not parsed in config(), and the list's module (with the
 * address parser it needs) loads only when the list is set: no function loads them at start. The
 * text is parsed once per value; an invalid entry throws here, failing each request that checks it
 * with the entry named (npm start and the cloud synth refuse it before that).
 */
import { config } from '../config';
import type { UpstreamCheck } from '../domain/upstream-hosts';

let parsed: { text: string; check: Promise<UpstreamCheck> } | undefined;

export function upstreamCheck(): Promise<UpstreamCheck | undefined> {
  const text = config().upstreamAllowedHosts;
  if (text === undefined) return Promise.resolve(undefined);
  if (parsed?.text !== text) {
    const check = import('../domain/upstream-hosts').then(({ checkUpstreamAllowed, parseHostAllowList }) => {
      const list = parseHostAllowList(text);
      return (url: unknown, where: string) => checkUpstreamAllowed(url, list, where);
    });
    parsed = { text, check };
  }
  return parsed.check;
}
