/**
 * The installation's organisations (GET /admin/organisations): searchable by id and name, a page
 * at a time, each with its state. Suspend and resume write `active` with the version read
 * (PUT /admin/organisations/{orgID}, If-Match): a suspended organisation's keys, users, gateway
 * writes and webhooks are refused until it is resumed, and nothing of it is deleted. Offboard
 * (DELETE /admin/organisations/{orgID}) deletes it with everything it owns, in the background; its
 * row then links to the run's progress.
 */
import { useEffect } from 'preact/hooks';
import { api, call, get } from '../api/client';
import { ConfirmButton } from '../components/confirm';
import { ListPage, useListPage } from '../components/list-page';
import { SearchForm } from '../components/search-form';
import { useResource } from '../components/use-resource';
import { dateTime } from '../format';
import { BASE } from '../layout';

const PAGE_SIZE = 20;
const HERE = `${BASE}/admin/`;

type Organisation = { id: string; owner_name?: string; active?: boolean; created_at?: string; offboarding_since?: string };

/** The organisation as stored, `active` changed, written back with the version it was read at. */
async function setActive(orgId: string, active: boolean): Promise<void> {
  const read = await call(api.GET('/admin/organisations/{orgID}', { params: { path: { orgID: orgId } } }));
  const { created_at: _c, updated_at: _u, version: _v, ...body } = read.data as Record<string, unknown>;
  await call(
    api.PUT('/admin/organisations/{orgID}', {
      params: { path: { orgID: orgId }, header: read.etag ? { 'If-Match': read.etag } : {} },
      body: { ...body, active } as never,
    }),
  );
}

export function Organisations(props: { onUnauthorized: () => void }) {
  const { query, route, page, message, setMessage } = useListPage();
  const search = query.q ?? '';
  const list = useResource(
    () => get(api.GET('/admin/organisations', { params: { query: { p: page, page_size: PAGE_SIZE, ...(search ? { q: search } : {}) } } })),
    [page, search],
  );
  useEffect(() => {
    if (list.error?.status === 401) props.onUnauthorized();
  }, [list.error]);
  const go = (q: string, p: number) => route(`${HERE}?${new URLSearchParams({ ...(q ? { q } : {}), ...(p > 1 ? { p: String(p) } : {}) })}`);
  const progress = (o: Organisation) => `${HERE}offboarding/${encodeURIComponent(o.id)}`;
  const offboard = (o: Organisation) => {
    const name = o.owner_name || o.id;
    return (
      <ConfirmButton
        small
        danger
        label="Offboard"
        name={`Offboard ${name}`}
        title={`Offboard ${name}?`}
        message="It is deleted with everything it owns: APIs, keys, policies, webhooks, templates, users, usage and its audit trail. This cannot be undone."
        confirmLabel="Offboard"
        onConfirm={async () => {
          await call(api.DELETE('/admin/organisations/{orgID}', { params: { path: { orgID: o.id } } }));
          route(progress(o));
        }}
      />
    );
  };
  const actions = (o: Organisation) =>
    o.offboarding_since ? (
      <a href={progress(o)}>Offboarding progress</a>
    ) : (
      <>
        {toggle(o)} {offboard(o)}
      </>
    );
  const toggle = (o: Organisation) => {
    const suspend = o.active !== false;
    const name = o.owner_name || o.id;
    return (
      <ConfirmButton
        small
        danger={suspend}
        label={suspend ? 'Suspend' : 'Resume'}
        name={`${suspend ? 'Suspend' : 'Resume'} ${name}`}
        title={suspend ? `Suspend ${name}?` : `Resume ${name}?`}
        message={
          suspend
            ? 'Its keys are refused at every gateway, its dashboard users are refused, its gateway writes are refused and its webhooks stop. Nothing is deleted.'
            : 'Its keys, users, gateway writes and webhooks work again as they did.'
        }
        confirmLabel={suspend ? 'Suspend' : 'Resume'}
        onConfirm={async () => {
          await setActive(o.id, !suspend);
          setMessage(`${name} is ${suspend ? 'suspended' : 'active again'}.`);
          list.reload();
        }}
      />
    );
  };
  return (
    <ListPage
      title="Organisations"
      noun="Organisations"
      caption="Organisations of the installation"
      message={message}
      list={list}
      rows={(d) => d.organisations as Organisation[]}
      pages={(d) => d.pages}
      rowKey={(o) => o.id}
      empty={search ? 'No organisation matches.' : 'The installation has no organisations yet.'}
      pagerLabel="Organisation pages"
      page={page}
      onPage={(p) => go(search, p)}
      controls={<SearchForm id="org-search" label="Search organisations" placeholder="Id or name" search={search} onSearch={(q) => go(q, 1)} />}
      columns={[
        { header: 'Name', cell: (o) => o.owner_name || <span class="muted">(none)</span> },
        { header: 'Organisation id', cell: (o) => <code>{o.id}</code> },
        {
          header: 'State',
          cell: (o) =>
            o.offboarding_since ? (
              <span class="badge suspended">Offboarding</span>
            ) : o.active === false ? (
              <span class="badge suspended">Suspended</span>
            ) : (
              'Active'
            ),
        },
        { header: 'Created', cell: (o) => dateTime(o.created_at) },
        { header: 'Actions', cell: actions },
      ]}
    />
  );
}
