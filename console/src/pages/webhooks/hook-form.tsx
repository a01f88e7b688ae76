/** Create a webhook (POST /api/hooks): the answer holds its signing secret this once. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { asServiceError, type ServiceError } from '../../api/errors';
import { ErrorNotice } from '../../components/error-notice';
import { Page } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { hookBody, hookFieldNames, HookFields, NEW_HOOK, type HookFormState } from './hook-fields';

export function HookForm() {
  const { can } = useSession();
  const [form, setForm] = useState<HookFormState>(NEW_HOOK);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const [created, setCreated] = useState<{ id: string; secret: string }>();

  if (!can('hooks', 'write')) {
    return (
      <Page title="Create a webhook">
        <p>Your permission for webhooks is read only: creating webhooks is not available to you.</p>
      </Page>
    );
  }
  if (created) {
    return (
      <Page title="Webhook created">
        <SecretOnce title="Its signing secret" value={created.secret} what="the signing secret" />
        <p>Receivers check each delivery's X-Gw-Signature with it.</p>
        <p>
          <a class="button" href={`${BASE}/webhooks/${encodeURIComponent(created.id)}`}>
            Open the webhook
          </a>
        </p>
      </Page>
    );
  }
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await call(api.POST('/api/hooks', { body: hookBody(form) }));
      setCreated({ id: data.Meta, secret: data.signing_secret });
    } catch (err) {
      setError(asServiceError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title="Create a webhook">
      <p>
        <a href={`${BASE}/webhooks`}>All webhooks</a>
      </p>
      <ErrorNotice error={error} shownFields={hookFieldNames(form)} />
      <form onSubmit={(e) => void submit(e)}>
        <HookFields form="hook-new" value={form} onChange={setForm} error={error} editing={false} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create webhook'}
        </button>
      </form>
    </Page>
  );
}
