/** What an organisation's objects look like through its own eyes, to prove a request changed nothing. */
import type { Stage } from '../../support/stage';
import { ACTIVITY_DAY, type World } from '../../support/world';

export const activityPath = (hash: string) => {
  const { day, month, year } = ACTIVITY_DAY;
  return `/api/activity/keys/${hash}/${day}/${month}/${year}/${day}/${month}/${year}`;
};

/**
 * Every object of the world read back: the dashboard views through the world's own key, the
 * objects only the gateway shows through the gateway. Status, ETag and body of each.
 */
export async function viewOf(s: Stage, w: World): Promise<Record<string, unknown>> {
  const reads: Array<[string, ReturnType<Stage['call']>]> = [
    ['users', s.dash(w.key, 'GET', '/api/users?p=-1')],
    ['apis', s.dash(w.key, 'GET', '/api/apis?p=-1')],
    ['assets', s.dash(w.key, 'GET', '/api/assets?p=-1')],
    ['hooks', s.dash(w.key, 'GET', '/api/hooks?p=-1')],
    ['asset', s.dash(w.key, 'GET', `/api/assets/${w.assetDbId}`)],
    ['hook', s.dash(w.key, 'GET', `/api/hooks/${w.hookId}`)],
    ['activity', s.dash(w.key, 'GET', activityPath(w.gwKeyHash))],
    ['oas', s.gw('GET', `/gw/apis/oas/${w.apiId}`)],
    ['classic', s.gw('GET', `/gw/apis/${w.classicApiId}`)],
    ['imported', s.gw('GET', `/gw/apis/${w.importedApiId}`)],
    ['gwKey', s.gw('GET', `/gw/keys/${w.gwKey}`)],
    ['adminKey', s.gw('GET', `/gw/keys/${w.adminKey}`)],
    ['policy', s.gw('GET', `/gw/policies/${w.policyId}`)],
    ['oauth', s.gw('GET', `/gw/oauth/clients/${w.apiId}`)],
  ];
  const out: Record<string, unknown> = {};
  for (const [name, p] of reads) {
    const r = await p;
    if (r.status !== 200) throw new Error(`view ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    out[name] = { etag: r.headers.get('etag'), body: r.body };
  }
  return out;
}

/** Every id a dashboard list shows, over all pages: p=-1, and a cursor walk one item a page. */
export async function allIds(s: Stage, key: string, path: string, idsOf: (body: any) => string[]): Promise<{ all: string[]; walked: string[] }> {
  const sep = path.includes('?') ? '&' : '?';
  const all = await s.dash(key, 'GET', `${path}${sep}p=-1`);
  if (all.status !== 200) throw new Error(`${path}: ${all.status} ${JSON.stringify(all.body)}`);
  const walked: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = await s.dash(key, 'GET', `${path}${sep}page_size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (page.status !== 200) throw new Error(`${path} page: ${page.status} ${JSON.stringify(page.body)}`);
    walked.push(...idsOf(page.body));
    cursor = page.body.next_cursor;
    if (!cursor) break;
  }
  return { all: idsOf(all.body), walked };
}
