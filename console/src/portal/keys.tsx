/**
 * The developer's keys and requests. Keys (by hash: the clear key is never kept) with their plan,
 * limits and live quota; rolling shows the new key once; revoking asks first. Requests with their
 * state and the organisation's reason; an approved one not yet collected offers its key, once.
 */
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import { asServiceError, type ServiceError } from '../api/errors';
import { ConfirmButton } from '../components/confirm';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page, Status } from '../components/page';
import { QuotaBar } from '../components/quota-bar';
import { SecretOnce } from '../components/secret-once';
import { useResource } from '../components/use-resource';
import { dateTime, shortHash } from '../format';
import { portalApi } from './client';
import { href, usePortal } from './context';
import { rateText } from './format';

const STATE_WORDS: Record<string, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  refused: 'Refused',
  revoked: 'Revoked',
};

export function MyKeys() {
  const { org, catalogue, developer } = usePortal();
  const path = { orgID: org };
  const keys = useResource(async () => (developer ? (await get(portalApi.GET('/portal/{orgID}/keys', { params: { path } }))).keys : []), [developer]);
  const requests = useResource(
    async () => (developer ? (await get(portalApi.GET('/portal/{orgID}/key-requests', { params: { path } }))).requests : []),
    [developer],
  );
  const [shown, setShown] = useState<{ title: string; key: string }>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<ServiceError>();
  if (!developer)
    return (
      <Page title="My keys">
        <p>
          <a href={href(org, 'sign-in')}>Sign in</a> to see your keys.
        </p>
      </Page>
    );

  const apiTitle = (id: string) => catalogue.apis.find((a) => a.api_id === id)?.title ?? id;
  const planName = (apiId: string, planId: string) => catalogue.apis.find((a) => a.api_id === apiId)?.plans.find((p) => p.id === planId)?.name ?? planId;
  const nameOf = (apiId: string, planId: string) => `${apiTitle(apiId)}, ${planName(apiId, planId)}`;
  const collect = async (id: string, name: string) => {
    setError(undefined);
    try {
      const answer = await get(portalApi.POST('/portal/{orgID}/key-requests/{requestID}/key', { params: { path: { ...path, requestID: id } } }));
      if (answer.Meta.key) setShown({ title: `Your key for ${name}`, key: answer.Meta.key });
      keys.reload();
      requests.reload();
    } catch (e) {
      setError(asServiceError(e));
    }
  };

  return (
    <Page title="My keys">
      {shown && <SecretOnce title={shown.title} value={shown.key} what="the key" />}
      {message && <Status>{message}</Status>}
      <ErrorNotice error={error ?? keys.error ?? requests.error} />
      {keys.loading && !keys.data && <Loading />}
      {keys.data?.length === 0 && (
        <p>
          You have no key yet. <a href={href(org)}>Pick a plan</a> to request one.
        </p>
      )}
      {keys.data && keys.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Your keys</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">API and plan</th>
                <th scope="col">Rate</th>
                <th scope="col">Quota</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => {
                const name = nameOf(k.api_id, k.plan_id);
                return (
                  <tr key={k.key_hash}>
                    <td>
                      <code title={k.key_hash}>{shortHash(k.key_hash)}</code>
                    </td>
                    <td>{name}</td>
                    <td>{rateText(k.rate, k.per)}</td>
                    <td>
                      <QuotaBar max={k.quota_max} remaining={k.quota_remaining} renews={k.quota_renews} label={`Quota of ${name}`} />
                      {k.quota_max > 0 && <span class="muted"> {k.quota_remaining} left</span>}
                    </td>
                    <td class="actions-cell">
                      <a href={href(org, `keys/${encodeURIComponent(k.key_hash)}/usage`)} aria-label={`Usage of ${name}`}>
                        Usage
                      </a>{' '}
                      <ConfirmButton
                        label="Roll"
                        name={`Roll the key of ${name}`}
                        title="Roll this key?"
                        message="A new key replaces this one with the same plan and limits. The old key stops working within minutes."
                        confirmLabel="Roll"
                        small
                        onConfirm={async () => {
                          const params = { path: { ...path, keyHash: k.key_hash } };
                          const answer = await get(portalApi.POST('/portal/{orgID}/keys/{keyHash}/roll', { params }));
                          if (answer.Meta.key) setShown({ title: `Your new key for ${name}`, key: answer.Meta.key });
                          keys.reload();
                        }}
                      />{' '}
                      <ConfirmButton
                        label="Revoke"
                        name={`Revoke the key of ${name}`}
                        title="Revoke this key?"
                        message="The key stops working and cannot be restored; you can request the plan again."
                        confirmLabel="Revoke"
                        danger
                        small
                        onConfirm={async () => {
                          await get(portalApi.DELETE('/portal/{orgID}/keys/{keyHash}', { params: { path: { ...path, keyHash: k.key_hash } } }));
                          setShown(undefined);
                          setMessage(`Revoked the key of ${name}.`);
                          keys.reload();
                          requests.reload();
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <h2>My requests</h2>
      {requests.data?.length === 0 && <p>You have not requested a plan yet.</p>}
      {requests.data && requests.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Your requests</caption>
            <thead>
              <tr>
                <th scope="col">API and plan</th>
                <th scope="col">Requested</th>
                <th scope="col">State</th>
                <th scope="col">Key</th>
              </tr>
            </thead>
            <tbody>
              {requests.data.map((r) => {
                const name = nameOf(r.api_id, r.plan_id);
                return (
                  <tr key={r.id}>
                    <td>{name}</td>
                    <td>{dateTime(r.created_at)}</td>
                    <td>
                      {STATE_WORDS[r.state] ?? r.state}
                      {r.reason && <span class="muted">: {r.reason}</span>}
                    </td>
                    <td>
                      {r.key_hash ? (
                        <code title={r.key_hash}>{shortHash(r.key_hash)}</code>
                      ) : r.state === 'approved' ? (
                        <button type="button" class="primary small" aria-label={`Collect the key of ${name}`} onClick={() => void collect(r.id, name)}>
                          Collect the key
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
