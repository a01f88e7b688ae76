/**
 * Definitions drive traffic on nginx (docs/using/serving-apis.md): an installation of 1,000 APIs
 * rendered by `gwctl gateway nginx --watch` (its default poll, 1 s) into real nginx.
 * - From a definition's write to the first request nginx serves for it: 20 new APIs, one at a
 *   time, each timed from the write's answer to nginx's first 401 on its listen path (a location
 *   exists; before, the default server's 404).
 * - What a reload costs at 1,000 APIs: rendering the table, `nginx -t` on it, and requests lost
 *   while the 20 changes reload nginx (a client sends one request at a time, each on its own
 *   connection, all along: every one must be answered 200).
 * - Requests per second through the rendered configuration (1,000 locations) against the
 *   example configuration's one static location, both asking the same stage for each request
 *   (the same key, no quota): what 1,000 locations cost nginx's routing.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderNginx, type RoutingTable } from '../../tools/gwctl/gateway/nginx-config';
import { NGINX, startFollower, startNginx, startNginxWith, statusVia } from '../../test/support/nginx';
import { apiAndKey, type Ctx } from '../lib/context';
import { call } from '../lib/http';
import { interleaved, median, percentile, round, type Row } from '../lib/stats';
import { fire } from './gateways';

const SCENARIO = 'definitions on nginx';
const APIS = 1000;
const CHANGES = 20;
const ROUNDS = 3;

function msOf(f: () => void, n = 5): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return round(median(times));
}

export async function nginxRouting(ctx: Ctx): Promise<Row[]> {
  const upstream = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const { orgId } = await ctx.tenant('bench-routing');
  const measured = await apiAndKey(ctx, orgId, { quota_max: -1 });
  // The measured API sends to the local upstream, with its listen path stripped.
  await call(ctx.stage.url, 'POST', '/gw/apis', ctx.gw, {
    api_id: `${measured.apiId}-up`,
    name: 'up',
    org_id: orgId,
    proxy: { listen_path: `/${measured.apiId}-up/`, target_url: upstreamUrl, strip_listen_path: true },
  });
  const rights = await call(ctx.stage.url, 'POST', '/gw/keys/create', ctx.gw, {
    org_id: orgId,
    quota_max: -1,
    access_rights: { [`${measured.apiId}-up`]: { api_id: `${measured.apiId}-up`, api_name: 'up', versions: ['Default'] } },
  });
  const upKey = { authorization: rights.body.key as string };
  const filler = Array.from({ length: APIS - 2 }, (_, i) => `${measured.apiId}-f${i}`);
  for (let i = 0; i < filler.length; i += 25) {
    await Promise.all(
      filler
        .slice(i, i + 25)
        .map((id) =>
          call(ctx.stage.url, 'POST', '/gw/apis', ctx.gw, { api_id: id, name: id, org_id: orgId, proxy: { listen_path: `/${id}/`, target_url: upstreamUrl } }),
        ),
    );
  }

  const rendered = await startNginxWith((listen) => `server { listen ${listen} default_server; return 404; }\n`, 2);
  const example = await startNginx({ control: ctx.stage.url, secret: ctx.stage.gwSecret, upstream: upstreamUrl, workers: 2 });
  const stage = { url: ctx.stage.url, gw: (method: string, path: string) => call(ctx.stage.url, method, path, ctx.gw) };
  const follower = await startFollower(rendered, stage, { gatewaySecret: ctx.stage.gwSecret, interval: 1 });
  try {
    const table = (await call(ctx.stage.url, 'GET', '/gw/routing', ctx.gw)).body as RoutingTable;
    const routes = table.hosts.reduce((n, h) => n + h.routes.length, 0);
    const control = { scheme: 'http' as const, hostPort: new URL(ctx.stage.url).host };
    const renderMs = msOf(() => renderNginx(table, { listen: rendered.listen, sharedNames: ['127.0.0.1'], control, gatewaySecret: 'x' }));
    const checkMs = msOf(() => execFileSync(NGINX, ['-t', '-q', '-c', rendered.conf, '-p', rendered.prefix]), 3);

    // Requests all along the changes, one at a time, each on its own connection.
    let loading = true;
    const lost: number[] = [];
    let sent = 0;
    const loader = (async () => {
      while (loading) {
        sent++;
        const s = await statusVia(rendered.url, `/${measured.apiId}-up/x`, upKey);
        if (s !== 200) lost.push(s);
      }
    })();
    const served: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const id = `${measured.apiId}-new${i}`;
      const w = await call(ctx.stage.url, 'POST', '/gw/apis', ctx.gw, {
        api_id: id,
        name: id,
        org_id: orgId,
        proxy: { listen_path: `/${id}/`, target_url: upstreamUrl },
      });
      if (w.status !== 200) throw new Error(`api: ${JSON.stringify(w.body)}`);
      const t0 = performance.now();
      while ((await statusVia(rendered.url, `/${id}/x`)) !== 401) {
        if (performance.now() - t0 > 30_000) throw new Error(`not served within 30 s: ${follower.log()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      served.push(performance.now() - t0);
    }
    loading = false;
    await loader;

    const runs = await interleaved(
      ROUNDS,
      () => fire(`${rendered.url}/${measured.apiId}-up/x`, upKey, ctx.stage.pid),
      () => fire(`${example.url}/${measured.apiId}-up/x`, upKey, ctx.stage.pid),
    );
    const allServed = [...runs.a, ...runs.b].every((r) => r.codes === `200:${r.allowed}` && r.allowed > 0);
    const ratio = median(runs.a.map((r, i) => r.perSecond / runs.b[i]!.perSecond));
    const detail = {
      routes,
      poll_seconds: 1,
      served_ms: served.map((v) => round(v, 0)).join(' '),
      render_ms: renderMs,
      nginx_t_ms: checkMs,
      requests_during_reloads: sent,
      lost_codes: lost.join(' '),
      rendered_per_s: runs.a.map((r) => round(r.perSecond, 0)).join(' / '),
      example_per_s: runs.b.map((r) => round(r.perSecond, 0)).join(' / '),
      rendered_codes: runs.a.map((r) => r.codes).join(' / '),
      example_codes: runs.b.map((r) => r.codes).join(' / '),
    };
    return [
      {
        scenario: SCENARIO,
        measured: `write to first request served, p50 (${APIS} APIs, 1 s poll)`,
        value: round(percentile(served, 50), 0),
        target: 'ms; within 5 s',
        pass: percentile(served, 50) < 5000,
        detail,
      },
      {
        scenario: SCENARIO,
        measured: 'write to first request served, max of 20',
        value: round(Math.max(...served), 0),
        target: '<= 5000 ms',
        pass: Math.max(...served) <= 5000,
        detail,
      },
      { scenario: SCENARIO, measured: `render of ${routes} routes`, value: renderMs, target: 'ms (reported)', pass: true, detail },
      { scenario: SCENARIO, measured: `nginx -t of ${routes} locations`, value: checkMs, target: 'ms (reported)', pass: true, detail },
      {
        scenario: SCENARIO,
        measured: `requests lost during ${CHANGES} reloads`,
        value: lost.length,
        target: `= 0 of ${sent}`,
        pass: lost.length === 0,
        detail,
      },
      {
        scenario: SCENARIO,
        measured: `requests/s, ${routes} locations vs one static location (median of ${ROUNDS})`,
        value: round(ratio),
        target: '>= 0.8',
        pass: ratio >= 0.8 && allServed,
        detail,
      },
    ];
  } finally {
    follower.stop();
    await rendered.close();
    await example.close();
    await new Promise((r) => upstream.close(r));
  }
}
