/**
 * Usage: requests, errors and latency of one API or one key over 24 hours, 7 or 30 days
 * (GET /api/usage/apis/... or /api/usage/keys/...). Loaded on first use with its chart library.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, get } from '../../api/client';
import type { Answer } from '../../api/paths';
import { ErrorNotice } from '../../components/error-notice';
import { Loading, Page } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { shortHash } from '../../format';
import { useSession } from '../../session/context';
import { apiIdOf, apiNameOf } from '../apis/api-fields';
import { UsageChart } from './usage-chart';
import { usageSeries } from './usage-series';
import { periodLabel, rangeOf, SPANS, type Span } from './usage-range';

type UsageAnswer = Answer<'/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', 'get'>;
type Subject = { kind: 'api' | 'key'; id: string };

export function totalsOf(rows: UsageAnswer['data']) {
  const hits = rows.reduce((n, r) => n + r.hits, 0);
  const errors = rows.reduce((n, r) => n + r.error, 0);
  const latency = hits ? rows.reduce((n, r) => n + r.latency_avg * r.hits, 0) / hits : 0;
  return { hits, errors, latency: Math.round(latency) };
}

export default function Usage() {
  const { can } = useSession();
  const [span, setSpan] = useState<Span>('24h');
  const [subject, setSubject] = useState<Subject>();
  const apis = useResource(async () => (await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }))).apis, []);
  const keys = useResource(async () => (can('keys', 'read') ? (await get(api.GET('/api/keys', { params: { query: { p: -1 } } }))).keys : []), []);
  const chosen = subject ?? (apis.data?.[0] ? { kind: 'api' as const, id: apiIdOf(apis.data[0]) } : undefined);

  const usage = useResource(async () => {
    if (!chosen) return undefined;
    const range = rangeOf(span);
    const query = { resolution: range.resolution };
    const answer =
      chosen.kind === 'api'
        ? await get(api.GET('/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', { params: { path: { apiID: chosen.id, ...range.path }, query } }))
        : await get(api.GET('/api/usage/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', { params: { path: { keyHash: chosen.id, ...range.path }, query } }));
    return { ...answer, data: answer.data.filter((r) => Date.parse(r.period) >= range.since) };
  }, [chosen?.kind, chosen?.id, span]);

  const charts = useMemo(() => {
    const u = usage.data;
    if (!u) return undefined;
    const labels = u.data.map((r) => periodLabel(r.period, u.resolution));
    return { labels, ...usageSeries(u.data), totals: totalsOf(u.data) };
  }, [usage.data]);

  const value = chosen ? `${chosen.kind}:${chosen.id}` : '';
  const spanLabel = SPANS.find((s) => s.span === span)!.label;
  return (
    <Page title="Usage">
      <form class="toolbar" onSubmit={(e) => e.preventDefault()}>
        <label for="usage-subject">API or key</label>
        <select
          id="usage-subject"
          value={value}
          onChange={(e) => {
            const [kind, ...rest] = e.currentTarget.value.split(':');
            setSubject({ kind: kind === 'key' ? 'key' : 'api', id: rest.join(':') });
          }}
        >
          {(apis.data?.length ?? 0) > 0 && (
            <optgroup label="APIs">
              {apis.data!.map((a) => (
                <option key={apiIdOf(a)} value={`api:${apiIdOf(a)}`}>
                  {apiNameOf(a)}
                </option>
              ))}
            </optgroup>
          )}
          {(keys.data?.length ?? 0) > 0 && (
            <optgroup label="Keys">
              {keys.data!.map((k) => (
                <option key={k.key_hash} value={`key:${k.key_hash}`}>
                  {k.alias || shortHash(k.key_hash)}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <fieldset class="segmented">
          <legend>Period</legend>
          {SPANS.map((s) => (
            <label key={s.span} class="check">
              <input type="radio" name="span" value={s.span} checked={span === s.span} onChange={() => setSpan(s.span)} /> {s.label}
            </label>
          ))}
        </fieldset>
      </form>
      <ErrorNotice error={apis.error ?? keys.error ?? usage.error} />
      {apis.data && apis.data.length === 0 && !keys.data?.length && <p>Your organisation has no APIs yet, so there is no usage to show.</p>}
      {usage.loading && !usage.data && chosen && <Loading />}
      {charts && usage.data && (
        <>
          <p role="status">
            Over the last {spanLabel}: {charts.totals.hits} request{charts.totals.hits === 1 ? '' : 's'}, {charts.totals.errors} error{charts.totals.errors === 1 ? '' : 's'}, {charts.totals.latency} ms on average.
          </p>
          <div class="charts">
            <UsageChart
              kind="bar"
              title={`Requests per ${usage.data.resolution}`} summary={`${charts.totals.hits} requests, ${charts.totals.errors} errors over the last ${spanLabel}`} labels={charts.labels} series={charts.requests} />
            <UsageChart kind="line" title="Latency" unit="ms" summary={`${charts.totals.latency} ms on average over the last ${spanLabel}`} labels={charts.labels} series={charts.latency} />
          </div>
          <details>
            <summary>Show the numbers</summary>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Usage per {usage.data.resolution}</caption>
                <thead>
                  <tr>
                    <th scope="col">Period (UTC)</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Successes</th>
                    <th scope="col">Errors</th>
                    <th scope="col">Average latency (ms)</th>
                    <th scope="col">Maximum latency (ms)</th>
                    <th scope="col">Upstream average (ms)</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.data.data.map((r, i) => (
                    <tr key={r.period}>
                      <td>{charts.labels[i]}</td>
                      <td>{r.hits}</td>
                      <td>{r.success}</td>
                      <td>{r.error}</td>
                      <td>{Math.round(r.latency_avg)}</td>
                      <td>{Math.round(r.latency_max)}</td>
                      <td>{Math.round(r.upstream_latency_avg)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </Page>
  );
}
