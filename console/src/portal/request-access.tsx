/**
 * Asking for a plan: an automatic plan's key comes back in the same answer and is shown this once;
 * a manual plan's request waits for the organisation's decision, and the key is collected from
 * "My keys" once it is approved.
 */
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import { asServiceError, type ServiceError } from '../api/errors';
import { ErrorNotice } from '../components/error-notice';
import { SecretOnce } from '../components/secret-once';
import { type CatalogueApi, type PublicPlan, portalApi } from './client';
import { href, usePortal } from './context';

export function RequestAccess(props: { api: CatalogueApi; plan: PublicPlan }) {
  const { org, developer } = usePortal();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const [result, setResult] = useState<{ key?: string | undefined; pending: boolean }>();
  const name = `${props.api.title}, ${props.plan.name}`;
  if (!developer)
    return (
      <p class="muted">
        <a href={href(org, 'sign-in')}>Sign in</a> or <a href={href(org, 'sign-up')}>sign up</a> to request access.
      </p>
    );
  const request = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = { api_id: props.api.api_id, plan_id: props.plan.id };
      const answer = await get(portalApi.POST('/portal/{orgID}/key-requests', { params: { path: { orgID: org } }, body }));
      setResult({ key: answer.Meta.key, pending: answer.Meta.request.state === 'pending' });
    } catch (e) {
      setError(asServiceError(e));
    } finally {
      setBusy(false);
    }
  };
  if (result?.key) return <SecretOnce title={`Your key for ${name}`} value={result.key} what="the key" />;
  if (result?.pending)
    return (
      <p class="status" role="status">
        Requested. The organisation approves {props.plan.name} requests itself: once it has, collect your key in <a href={href(org, 'keys')}>My keys</a>.
      </p>
    );
  return (
    <>
      <ErrorNotice error={error} />
      <button type="button" class="primary" disabled={busy} aria-label={`Request access to ${name}`} onClick={() => void request()}>
        {busy ? 'Requesting…' : 'Request access'}
      </button>
    </>
  );
}
