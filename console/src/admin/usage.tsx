/**
 * The installation's usage for billing (GET /admin/usage, GET /admin/organisations/{orgID}/usage):
 * a month's requests allowed and refused per organisation, and one organisation's days as stacked
 * bars (a day's requests are a count of that day; a day without any is an empty column, not a
 * point on a line). Loaded on first use with its chart library.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, get } from '../api/client';
import type { Answer } from '../api/paths';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page } from '../components/page';
import { useResource } from '../components/use-resource';
import { UsageChart, type Series } from '../pages/usage/usage-chart';

type Month = Answer<'/admin/usage', 'get'>;
type OrgMonth = Answer<'/admin/organisations/{orgID}/usage', 'get'>;
type Figures = { allowed: number; refused: number; refused_by_reason: Record<string, number | undefined> };

const thisMonth = () => new Date().toISOString().slice(0, 7);
const reasons = (f: Figures) =>
  Object.entries(f.refused_by_reason)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '–';

/** Figures per row (an organisation, an API), with what a row may add in a last column. */
function FiguresTable(props: { caption: string; name: string; rows: Array<{ name: string; figures: Figures; action?: ComponentChildren }> }) {
  const actions = props.rows.some((r) => r.action);
  return (
    <div class="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.name}</th>
            <th scope="col">Allowed</th>
            <th scope="col">Refused</th>
            <th scope="col">Refused by reason</th>
            {actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td>{r.figures.allowed}</td>
              <td>{r.figures.refused}</td>
              <td>{reasons(r.figures)}</td>
              {actions && <td>{r.action}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every day of the month (UTC), so a day without requests is an empty column. */
function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

function OrganisationMonth(props: { orgId: string; month: string }) {
  const usage = useResource(
    async () =>
      (await get(api.GET('/admin/organisations/{orgID}/usage', { params: { path: { orgID: props.orgId }, query: { month: props.month } } }))) as OrgMonth,
    [props.orgId, props.month],
  );
  const chart = useMemo(() => {
    const u = usage.data;
    if (!u) return undefined;
    const days = daysOf(props.month);
    const perDay = new Map<string, { allowed: number; refused: number }>();
    for (const d of u.days) {
      const got = perDay.get(d.day) ?? { allowed: 0, refused: 0 };
      perDay.set(d.day, { allowed: got.allowed + d.allowed, refused: got.refused + d.refused });
    }
    const series: Series[] = [
      { label: 'Allowed', data: days.map((d) => perDay.get(d)?.allowed ?? 0), color: '#1e7d32' },
      { label: 'Refused', data: days.map((d) => perDay.get(d)?.refused ?? 0), color: '#b3261e' },
    ];
    return { labels: days.map((d) => d.slice(8)), series };
  }, [usage.data]);
  const u = usage.data;
  return (
    <section aria-labelledby="org-month">
      <h2 id="org-month">
        {props.orgId}, {props.month}
      </h2>
      <ErrorNotice error={usage.error} />
      {usage.loading && !u && <Loading />}
      {u && chart && (
        <>
          <p role="status">
            {u.total.allowed} allowed, {u.total.refused} refused.
          </p>
          <div class="charts">
            <UsageChart
              kind="bar"
              title="Requests per day"
              summary={`${u.total.allowed} allowed and ${u.total.refused} refused in ${props.month}`}
              labels={chart.labels}
              series={chart.series}
            />
          </div>
          <FiguresTable caption="Per API" name="API" rows={u.apis.map((a) => ({ name: a.api_id, figures: a }))} />
        </>
      )}
    </section>
  );
}

export default function AdminUsage(props: { onUnauthorized: () => void }) {
  const [month, setMonth] = useState(thisMonth());
  const [chosen, setChosen] = useState<string>();
  const usage = useResource(async () => (await get(api.GET('/admin/usage', { params: { query: { month } } }))) as Month, [month]);
  useEffect(() => {
    if (usage.error?.status === 401) props.onUnauthorized();
  }, [usage.error]);
  const u = usage.data;
  return (
    <Page title="Usage">
      <form class="toolbar" onSubmit={(e) => e.preventDefault()}>
        <label for="usage-month">Month</label>
        <input
          id="usage-month"
          type="month"
          value={month}
          onChange={(e) => {
            if (/^\d{4}-\d{2}$/.test(e.currentTarget.value)) setMonth(e.currentTarget.value);
          }}
        />
      </form>
      <p>
        What the gateways' checks allowed and refused, per organisation (UTC). <code>gwctl usage --output csv</code> gives the same for a
        spreadsheet.
      </p>
      <ErrorNotice error={usage.error?.status === 401 ? undefined : usage.error} />
      {usage.loading && !u && <Loading />}
      {u && (
        <>
          <p role="status">
            {month}: {u.total.allowed} allowed, {u.total.refused} refused, {u.organisations.length} organisation{u.organisations.length === 1 ? '' : 's'}.
          </p>
          {u.organisations.length === 0 ? (
            <p>No organisation made a request this month.</p>
          ) : (
            <FiguresTable
              caption={`Organisations in ${month}`}
              name="Organisation"
              rows={u.organisations.map((o) => ({
                name: o.org_id,
                figures: o,
                action: (
                  <button type="button" class="small" aria-pressed={chosen === o.org_id} onClick={() => setChosen(o.org_id)}>
                    Days of {o.org_id}
                  </button>
                ),
              }))}
            />
          )}
        </>
      )}
      {chosen && <OrganisationMonth orgId={chosen} month={month} />}
    </Page>
  );
}
