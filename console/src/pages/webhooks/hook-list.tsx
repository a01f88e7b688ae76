/** Webhooks: the organisation's webhooks (GET /api/hooks). */
import { api, get } from '../../api/client';
import { ListPage, useListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';

export function HookList() {
  const { can } = useSession();
  const { page, message, route } = useListPage();
  const list = useResource(() => get(api.GET('/api/hooks', { params: { query: { p: page, page_size: 20 } } })), [page]);
  return (
    <ListPage
      title="Webhooks"
      noun="Webhooks"
      create={can('hooks', 'write') && { href: `${BASE}/webhooks/new`, label: 'Create a webhook' }}
      message={message}
      list={list}
      rows={(d) => d.hooks}
      pages={(d) => d.pages}
      rowKey={(h) => h.id}
      empty="Your organisation has no webhooks yet."
      pagerLabel="Webhook pages"
      page={page}
      onPage={(p) => route(`${BASE}/webhooks?p=${p}`)}
      columns={[
        { header: 'Name', cell: (h) => <a href={`${BASE}/webhooks/${encodeURIComponent(h.id)}`}>{h.name || h.id}</a> },
        { header: 'Method', cell: (h) => h.method },
        { header: 'Target', cell: (h) => h.target_path, class: 'wrap' },
        { header: 'Cooldown', cell: (h) => (h.event_timeout === undefined ? 'default' : `${h.event_timeout} s`) },
        { header: 'Created', cell: (h) => dateTime(h.created_at) },
      ]}
    />
  );
}
