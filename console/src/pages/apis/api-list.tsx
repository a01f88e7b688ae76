/**
 * APIs: the organisation's APIs, a page at a time (GET /api/apis, `p`). A search matches name, id
 * or listen path: the list route has no search parameter, so a search reads every API once
 * (`p=-1`) and pages the matches here.
 */
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
import { apiIdOf, apiNameOf, isActive, isOas, listenPathOf, matchesSearch, upstreamOf } from './api-fields';

const PAGE_SIZE = 10;

export function ApiList() {
  const { can } = useSession();
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.p) || 1);
  const search = query.q ?? '';
  const [draft, setDraft] = useState(search);
  const [message] = useState(takeFlash);

  const list = useResource(async () => {
    if (!search) {
      const d = await get(api.GET('/api/apis', { params: { query: { p: page, page_size: PAGE_SIZE, sort: 'name' } } }));
      return { rows: d.apis, pages: d.pages };
    }
    const all = await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }));
    const hits = all.apis.filter((e) => matchesSearch(e, search));
    return { rows: hits.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), pages: Math.ceil(hits.length / PAGE_SIZE), matches: hits.length };
  }, [page, search]);

  const go = (q: string, p: number) => route(`${BASE}/apis?${new URLSearchParams({ ...(q ? { q } : {}), ...(p > 1 ? { p: String(p) } : {}) })}`);

  return (
    <Page
      title="APIs"
      actions={
        can('apis', 'write') && (
          <a class="button primary" href={`${BASE}/apis/import`}>
            Import an API
          </a>
        )
      }
    >
      {message && <Status>{message}</Status>}
      <form
        role="search"
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          go(draft.trim(), 1);
        }}
      >
        <label for="api-search">Search APIs</label>
        <input id="api-search" type="search" value={draft} placeholder="Name, id or listen path" onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Search</button>
        {search && (
          <button type="button" onClick={() => (setDraft(''), go('', 1))}>
            Clear
          </button>
        )}
      </form>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data ? (
        <Loading />
      ) : (
        list.data && (
          <>
            {search && (
              <p role="status">
                {list.data.matches} API{list.data.matches === 1 ? '' : 's'} match “{search}”.
              </p>
            )}
            {list.data.rows.length === 0 ? (
              <p>{search ? 'No API matches.' : 'Your organisation has no APIs yet.'}</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <caption class="visually-hidden">APIs of your organisation</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">API id</th>
                      <th scope="col">Listen path</th>
                      <th scope="col">Upstream</th>
                      <th scope="col">State</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.rows.map((e) => (
                      <tr key={apiIdOf(e)}>
                        <td>
                          <a href={`${BASE}/apis/${encodeURIComponent(apiIdOf(e))}`}>{apiNameOf(e)}</a> {isOas(e) && <span class="badge">OAS</span>}
                        </td>
                        <td>
                          <code>{apiIdOf(e)}</code>
                        </td>
                        <td>
                          <code>{listenPathOf(e)}</code>
                        </td>
                        <td class="wrap">{upstreamOf(e)}</td>
                        <td>{isActive(e) ? 'Active' : 'Inactive'}</td>
                        <td>{dateTime(e.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager label="API pages" page={page} pages={list.data.pages} onPage={(p) => go(search, p)} />
          </>
        )
      )}
    </Page>
  );
}
