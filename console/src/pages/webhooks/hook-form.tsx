/** Create a webhook (POST /api/hooks): the answer holds its signing secret this once. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ErrorNotice } from '../../components/error-notice';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Page } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { hookBody, hookFieldNames, HookFields, NEW_HOOK, type HookFormState } from './hook-fields';

export function HookForm() {
  const { can } = useSession();
  const [form, setForm] = useState<HookFormState>(NEW_HOOK);
  const { busy, error, onSubmit } = useFormAction(async () => {
    const { data } = await call(api.POST('/api/hooks', { body: hookBody(form) }));
    setCreated({ id: data.Meta, secret: data.signing_secret });
  });
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
  return (
    <Page title="Create a webhook">
      <p>
        <a href={`${BASE}/webhooks`}>All webhooks</a>
      </p>
      <ErrorNotice error={error} shownFields={hookFieldNames(form)} />
      <form onSubmit={onSubmit}>
        <HookFields form="hook-new" value={form} onChange={setForm} error={error} editing={false} />
        <SubmitButton busy={busy} label="Create webhook" busyLabel="Creating…" />
      </form>
    </Page>
  );
}
