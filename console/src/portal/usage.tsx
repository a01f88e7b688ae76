/**
 * One key's usage per day (GET /portal/{orgID}/keys/{keyHash}/usage?days=N): requests and latency
 * drawn by the console's own chart (Chart.js, loaded with this page on first use), the numbers in a
 * table too.
 */
import { useMemo, useState } from 'preact/hooks';
import { get } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page } from '../components/page';
import { useResource } from '../components/use-resource';
import { shortHash } from '../format';
import { UsageChart } from '../pages/usage/usage-chart';
import { periodLabel } from '../pages/usage/usage-range';
import { usageSeries } from '../pages/usage/usage-series';
import { portalApi } from './client';
import { href, usePortal } from './context';

const DAYS = [7, 30, 90];

export default function KeyUsage(props: { keyHash: string }) {
  const { org } = usePortal();
  const [days, setDays] = useState(30);
  const usage = useResource(
    () => get(portalApi.GET('/portal/{orgID}/keys/{keyHash}/usage', { params: { path: { orgID: org, keyHash: props.keyHash }, query: { days } } })),
    [props.keyHash, days],
  );
  const charts = useMemo(() => {
    const rows = usage.data?.data;
    if (!rows) return undefined;
    const hits = rows.reduce((n, r) => n + r.hits, 0);
    const errors = rows.reduce((n, r) => n + r.error, 0);
    return { labels: rows.map((r) => periodLabel(r.period, 'day')), ...usageSeries(rows), hits, errors };
  }, [usage.data]);
  return (
    <Page title={`Usage of key ${shortHash(props.keyHash)}`}>
      <p>
        <a href={href(org, 'keys')}>My keys</a>
      </p>
      <fieldset class="segmented">
        <legend>Period</legend>
        {DAYS.map((d) => (
          <label key={d} class="check">
            <input type="radio" name="days" value={d} checked={days === d} onChange={() => setDays(d)} /> {d} days
          </label>
        ))}
      </fieldset>
      <ErrorNotice error={usage.error} />
      {usage.loading && !usage.data && <Loading />}
      {charts && usage.data && (
        <>
          <p role="status">
            Over the last {days} days: {charts.hits} request{charts.hits === 1 ? '' : 's'}, {charts.errors} error{charts.errors === 1 ? '' : 's'}.
          </p>
          <div class="charts">
            <UsageChart
              kind="bar"
              title="Requests per day"
              summary={`${charts.hits} requests, ${charts.errors} errors`}
              labels={charts.labels}
              series={charts.requests}
            />
            <UsageChart kind="line" title="Latency" unit="ms" summary="average, maximum and upstream latency" labels={charts.labels} series={charts.latency} />
          </div>
          <div class="table-wrap">
            <table>
              <caption>Usage per day (UTC)</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Successes</th>
                  <th scope="col">Errors</th>
                  <th scope="col">Average latency (ms)</th>
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
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Page>
  );
}
