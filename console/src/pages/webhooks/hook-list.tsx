/** Webhooks: the organisation's webhooks (GET /api/hooks). */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, get } from '../../api/client';
import { ErrorNotice } from '../../components/error-notice';
import { takeFlash } from '../../components/flash';
import { Loading, Page, Status } from '../../components/page';
import { Pager } from '../../components/pager';
import { useResource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';

export function HookList() {
  const { can } = useSession();
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.p) || 1);
  const [message] = useState(takeFlash);
  const list = useResource(() => get(api.GET('/api/hooks', { params: { query: { p: page, page_size: 20 } } })), [page]);
  return (
    <Page
      title="Webhooks"
      actions={
        can('hooks', 'write') && (
          <a class="button primary" href={`${BASE}/webhooks/new`}>
            Create a webhook
          </a>
        )
      }
    >
      {message && <Status>{message}</Status>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data &&
        (list.data.hooks.length === 0 ? (
          <p>Your organisation has no webhooks yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Webhooks of your organisation</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Method</th>
                  <th scope="col">Target</th>
                  <th scope="col">Cooldown</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.hooks.map((h) => (
                  <tr key={h.id}>
                    <td>
                      <a href={`${BASE}/webhooks/${encodeURIComponent(h.id)}`}>{h.name || h.id}</a>
                    </td>
                    <td>{h.method}</td>
                    <td class="wrap">{h.target_path}</td>
                    <td>{h.event_timeout === undefined ? 'default' : `${h.event_timeout} s`}</td>
                    <td>{dateTime(h.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {list.data && <Pager label="Webhook pages" page={page} pages={list.data.pages} onPage={(p) => route(`${BASE}/webhooks?p=${p}`)} />}
    </Page>
  );
}
