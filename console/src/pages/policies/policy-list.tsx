/** Policies: the organisation's policies (GET /api/portal/policies), with their limits and APIs. */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, get } from '../../api/client';
import { ErrorNotice } from '../../components/error-notice';
import { takeFlash } from '../../components/flash';
import { Loading, Page, Status } from '../../components/page';
import { Pager } from '../../components/pager';
import { useResource } from '../../components/use-resource';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';

const limit = (n: number | undefined, unit: string) => (n === undefined || n <= 0 ? 'none' : `${n} ${unit}`);

export function PolicyList() {
  const { can } = useSession();
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.p) || 1);
  const [message] = useState(takeFlash);
  const list = useResource(() => get(api.GET('/api/portal/policies', { params: { query: { p: page, page_size: 20 } } })), [page]);
  return (
    <Page
      title="Policies"
      actions={
        can('policies', 'write') && (
          <a class="button primary" href={`${BASE}/policies/new`}>
            Create a policy
          </a>
        )
      }
    >
      {message && <Status>{message}</Status>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data &&
        (list.data.Data.length === 0 ? (
          <p>Your organisation has no policies yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Policies of your organisation</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Policy id</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Quota</th>
                  <th scope="col">APIs</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {list.data.Data.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a href={`${BASE}/policies/${encodeURIComponent(p.id)}`}>{p.name || p.id}</a>
                    </td>
                    <td>
                      <code>{p.id}</code>
                    </td>
                    <td>{p.rate && p.rate > 0 ? `${p.rate} per ${p.per ?? 0} s` : 'none'}</td>
                    <td>{limit(p.quota_max, `per ${p.quota_renewal_rate ?? 0} s`)}</td>
                    <td class="wrap">{Object.keys(p.access_rights ?? {}).join(', ')}</td>
                    <td>{p.active === false ? 'Inactive' : 'Active'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {list.data && <Pager label="Policy pages" page={page} pages={list.data.Pages} onPage={(p) => route(`${BASE}/policies?p=${p}`)} />}
    </Page>
  );
}
