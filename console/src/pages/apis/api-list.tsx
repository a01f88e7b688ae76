/**
 * APIs: the organisation's APIs, a page at a time (GET /api/apis, `p`). A search matches name, id
 * or listen path: the list route has no search parameter, so a search reads every API once
 * (`p=-1`) and pages the matches here.
 */
import { api, get } from '../../api/client';
import { ListPage, useListPage } from '../../components/list-page';
import { SearchForm } from '../../components/search-form';
import { useResource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { apiIdOf, apiNameOf, isActive, isOas, listenPathOf, matchesSearch, upstreamOf } from './api-fields';

const PAGE_SIZE = 10;

export function ApiList() {
  const { can } = useSession();
  const { query, route, page, message } = useListPage();
  const search = query.q ?? '';

  const list = useResource(async () => {
    if (!search) {
      const d = await get(api.GET('/api/apis', { params: { query: { p: page, page_size: PAGE_SIZE, sort: 'name' } } }));
      return { rows: d.apis, pages: d.pages, matches: undefined };
    }
    const all = await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }));
    const hits = all.apis.filter((e) => matchesSearch(e, search));
    return { rows: hits.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), pages: Math.ceil(hits.length / PAGE_SIZE), matches: hits.length };
  }, [page, search]);

  const go = (q: string, p: number) => route(`${BASE}/apis?${new URLSearchParams({ ...(q ? { q } : {}), ...(p > 1 ? { p: String(p) } : {}) })}`);

  return (
    <ListPage
      title="APIs"
      noun="APIs"
      create={can('apis', 'write') && { href: `${BASE}/apis/import`, label: 'Import an API' }}
      message={message}
      list={list}
      rows={(d) => d.rows}
      pages={(d) => d.pages}
      rowKey={apiIdOf}
      empty={search ? 'No API matches.' : 'Your organisation has no APIs yet.'}
      pagerLabel="API pages"
      page={page}
      onPage={(p) => go(search, p)}
      controls={<SearchForm id="api-search" label="Search APIs" placeholder="Name, id or listen path" search={search} onSearch={(q) => go(q, 1)} />}
      summary={(d) =>
        d.matches !== undefined && (
          <p role="status">
            {d.matches} API{d.matches === 1 ? '' : 's'} match “{search}”.
          </p>
        )
      }
      columns={[
        {
          header: 'Name',
          cell: (e) => (
            <>
              <a href={`${BASE}/apis/${encodeURIComponent(apiIdOf(e))}`}>{apiNameOf(e)}</a> {isOas(e) && <span class="badge">OAS</span>}
            </>
          ),
        },
        { header: 'API id', cell: (e) => <code>{apiIdOf(e)}</code> },
        { header: 'Listen path', cell: (e) => <code>{listenPathOf(e)}</code> },
        { header: 'Upstream', cell: upstreamOf, class: 'wrap' },
        { header: 'State', cell: (e) => (isActive(e) ? 'Active' : 'Inactive') },
        { header: 'Created', cell: (e) => dateTime(e.created_at) },
      ]}
    />
  );
}
