/** Policies: the organisation's policies (GET /api/portal/policies), with their limits and APIs. */
import { api, get } from '../../api/client';
import { ListPage, useListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';

const limit = (n: number | undefined, unit: string) => (n === undefined || n <= 0 ? 'none' : `${n} ${unit}`);

export function PolicyList() {
  const { can } = useSession();
  const { page, message, route } = useListPage();
  const list = useResource(() => get(api.GET('/api/portal/policies', { params: { query: { p: page, page_size: 20 } } })), [page]);
  return (
    <ListPage
      title="Policies"
      noun="Policies"
      create={can('policies', 'write') && { href: `${BASE}/policies/new`, label: 'Create a policy' }}
      message={message}
      list={list}
      rows={(d) => d.Data}
      pages={(d) => d.Pages}
      rowKey={(p) => p.id}
      empty="Your organisation has no policies yet."
      pagerLabel="Policy pages"
      page={page}
      onPage={(p) => route(`${BASE}/policies?p=${p}`)}
      columns={[
        { header: 'Name', cell: (p) => <a href={`${BASE}/policies/${encodeURIComponent(p.id)}`}>{p.name || p.id}</a> },
        { header: 'Policy id', cell: (p) => <code>{p.id}</code> },
        { header: 'Rate', cell: (p) => (p.rate && p.rate > 0 ? `${p.rate} per ${p.per ?? 0} s` : 'none') },
        { header: 'Quota', cell: (p) => limit(p.quota_max, `per ${p.quota_renewal_rate ?? 0} s`) },
        { header: 'APIs', cell: (p) => Object.keys(p.access_rights ?? {}).join(', '), class: 'wrap' },
        { header: 'State', cell: (p) => (p.active === false ? 'Inactive' : 'Active') },
      ]}
    />
  );
}
