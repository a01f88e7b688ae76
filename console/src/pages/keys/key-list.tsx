/**
 * Keys: the organisation's keys, newest first (GET /api/keys; only hashes: a clear key is shown
 * once, when it is created), each with its quota used of max and when it renews; reset a key's
 * quota (PUT with reset_quota=1 and the version read) or revoke it (DELETE), each asked first.
 */
import { api, call, get } from '../../api/client';
import type { Answer, Body } from '../../api/paths';
import { ConfirmButton } from '../../components/confirm';
import { ListPage, useListPage } from '../../components/list-page';
import { QuotaBar } from '../../components/quota-bar';
import { useResource } from '../../components/use-resource';
import { dateTime, shortHash } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { useApiNames } from '../access-picker';

type KeyEntry = Answer<'/api/keys', 'get'>['keys'][number];

/**
 * The session to send back when resetting: the one read, without the live quota the service owns.
 * A replacement must say what the key opens; the session read always has its access rights.
 */
export function sessionForReset(data: Answer<'/api/keys/{keyHash}', 'get'>['data']): Body<'/api/keys/{keyHash}', 'put'> {
  const { quota_remaining: _remaining, quota_renews: _renews, ...session } = data;
  return { ...session, access_rights: session.access_rights ?? {} };
}

export function KeyList() {
  const { can } = useSession();
  const { page, message, setMessage, route } = useListPage();
  const names = useApiNames();
  const keys = useResource(() => get(api.GET('/api/keys', { params: { query: { p: page, page_size: 20 } } })), [page]);
  const write = can('keys', 'write');
  const label = (k: KeyEntry) => k.alias || shortHash(k.key_hash);

  const resetQuota = async (k: KeyEntry) => {
    const current = await call(api.GET('/api/keys/{keyHash}', { params: { path: { keyHash: k.key_hash } } }));
    await call(
      api.PUT('/api/keys/{keyHash}', {
        params: { path: { keyHash: k.key_hash }, query: { reset_quota: '1' }, header: current.etag ? { 'If-Match': current.etag } : {} },
        body: sessionForReset(current.data.data),
      }),
    );
    setMessage(`Reset the quota of ${label(k)}.`);
    keys.reload();
  };
  const revoke = async (k: KeyEntry) => {
    await call(api.DELETE('/api/keys/{keyHash}', { params: { path: { keyHash: k.key_hash } } }));
    setMessage(`Revoked ${label(k)}: it no longer opens any API.`);
    keys.reload();
  };

  return (
    <ListPage
      title="Keys"
      noun="Keys"
      create={write && { href: `${BASE}/keys/new`, label: 'Create a key' }}
      message={message}
      list={keys}
      rows={(d) => d.keys}
      pages={(d) => d.pages}
      rowKey={(k) => k.key_hash}
      empty="Your organisation has no keys yet."
      pagerLabel="Key pages"
      page={page}
      onPage={(p) => route(`${BASE}/keys?p=${p}`)}
      columns={[
        { header: 'Alias', cell: (k) => k.alias || <span class="muted">none</span> },
        {
          header: 'Key hash',
          cell: (k) => (
            <code class="nowrap" title={k.key_hash}>
              {shortHash(k.key_hash)}
            </code>
          ),
        },
        {
          header: 'Access',
          class: 'wrap',
          cell: (k) => (
            <>
              {k.apis.map((a) => names.data?.get(a) ?? a).join(', ')}
              {k.apply_policies.length > 0 && <span class="muted"> policies: {k.apply_policies.join(', ')}</span>}
            </>
          ),
        },
        {
          header: 'Quota',
          cell: (k) => <QuotaBar label={`Quota of ${label(k)}`} max={k.quota_max} remaining={k.quota_remaining} renews={k.quota_renews} />,
        },
        { header: 'Expires', cell: (k) => (k.expires > 0 ? dateTime(k.expires) : 'Never') },
        { header: 'State', cell: (k) => (k.is_inactive ? 'Inactive' : 'Active') },
        write && {
          header: 'Actions',
          class: 'row-actions',
          cell: (k) => (
            <>
              <ConfirmButton
                small
                label="Reset quota"
                name={`Reset quota of ${label(k)}`}
                title={`Reset the quota of ${label(k)}?`}
                message={<p>Its whole quota is available again at once, and the renewal window starts now.</p>}
                confirmLabel="Reset quota"
                onConfirm={() => resetQuota(k)}
              />
              <ConfirmButton
                small
                danger
                label="Revoke"
                name={`Revoke ${label(k)}`}
                title={`Revoke ${label(k)}?`}
                message={<p>The key is deleted: every request with it is refused from now on. This cannot be undone.</p>}
                confirmLabel="Revoke"
                onConfirm={() => revoke(k)}
              />
            </>
          ),
        },
      ]}
    />
  );
}
