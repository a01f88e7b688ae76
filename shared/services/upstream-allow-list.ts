/**
 * UPSTREAM_ALLOWED_HOSTS parsed, once per value, by the functions that check upstreams (a
 * dashboard import, a streams patch). It is not parsed in config(): the address parser it needs
 * would load at the start of every function. An invalid entry throws here, failing each request
 * that checks it with the entry named; npm start and the cloud synth refuse it before that.
 */
import { config } from '../config';
import { parseHostAllowList, type HostAllowList } from '../domain/upstream-hosts';

let parsed: { text: string | undefined; list: HostAllowList | undefined } | undefined;

export function upstreamAllowList(): HostAllowList | undefined {
  const text = config().upstreamAllowedHosts;
  if (!parsed || parsed.text !== text) parsed = { text, list: parseHostAllowList(text) };
  return parsed.list;
}
