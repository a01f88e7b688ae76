/**
 * The Portal section's first page: the portal's settings (on or off, sign-up mode, title, its
 * domain, the webhooks of its events) and its catalogue (each published API with its plans; unpublish after
 * asking). Write controls only with `portal: write`; the service decides either way.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../../api/client';
import { ConfirmButton } from '../../components/confirm';
import { ErrorNotice } from '../../components/error-notice';
import { Check, Field } from '../../components/field';
import { takeFlash } from '../../components/flash';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Loading, Page, Status } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { useSession } from '../../session/context';
import { PORTAL_SECTION, PortalNav } from './portal-nav';

const FORM = 'portal-settings';
type Mode = 'open' | 'invitation' | 'approval';

export function PortalSettings() {
  const { can, user } = useSession();
  const write = can('portal', 'write');
  const settings = useResource(() => get(api.GET('/api/portal/settings')), []);
  const catalogue = useResource(() => get(api.GET('/api/portal/catalogue')), []);
  const hooks = useResource(async () => (can('hooks', 'read') ? (await get(api.GET('/api/hooks', { params: { query: { p: -1 } } }))).hooks : []), []);
  const [form, setForm] = useState({ enabled: false, sign_up: 'approval' as Mode, title: '', domain: '', hook_ids: [] as string[] });
  const [message, setMessage] = useState(takeFlash);
  useEffect(() => {
    const s = settings.data;
    if (s) setForm({ enabled: s.enabled, sign_up: s.sign_up, title: s.title ?? '', domain: s.domain ?? '', hook_ids: s.hook_ids ?? [] });
  }, [settings.data]);
  const { busy, error, onSubmit } = useFormAction(async () => {
    setMessage(undefined);
    const body = {
      enabled: form.enabled,
      sign_up: form.sign_up,
      hook_ids: form.hook_ids,
      ...(form.title.trim() ? { title: form.title.trim() } : {}),
      ...(form.domain.trim() ? { domain: form.domain.trim() } : {}),
    };
    await get(api.PUT('/api/portal/settings', { body }));
    setMessage('Saved.');
  });
  const portalUrl = `${location.origin}/console/portal/${encodeURIComponent(user.org_id)}/`;
  return (
    <Page title="Developer portal">
      <PortalNav />
      <p>
        Your organisation's portal for developers outside it: <a href={portalUrl}>{portalUrl}</a>
      </p>
      {message && <Status>{message}</Status>}
      <ErrorNotice error={settings.error ?? error} shownFields={['title', 'sign_up', 'domain', 'hook_ids']} />
      {settings.loading && !settings.data && <Loading />}
      {settings.data && (
        <form onSubmit={onSubmit} aria-label="Portal settings">
          <fieldset disabled={!write}>
            <legend>Settings</legend>
            <Check
              label="Portal on"
              hint="off, every public and developer page of the portal answers as if there were none"
              checked={form.enabled}
              onChange={(v) => setForm({ ...form, enabled: v })}
            />
            <Field form={FORM} name="sign_up" label="Sign-up" error={error}>
              {(c) => (
                <select {...c} value={form.sign_up} onChange={(e) => setForm({ ...form, sign_up: e.currentTarget.value as Mode })}>
                  <option value="open">Open: anyone who signs up is active at once</option>
                  <option value="approval">Approval: a user of the organisation approves each developer</option>
                  <option value="invitation">Invitation: only with an invitation you issue</option>
                </select>
              )}
            </Field>
            <Field form={FORM} name="title" label="Title" hint="What the portal shows at its top." error={error}>
              {(c) => <input {...c} maxLength={120} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} />}
            </Field>
            <Field
              form={FORM}
              name="domain"
              label="Domain"
              hint="Optional: a domain an installation admin granted your organisation; gateways serve the portal there too."
              error={error}
            >
              {(c) => <input {...c} maxLength={253} value={form.domain} onInput={(e) => setForm({ ...form, domain: e.currentTarget.value })} />}
            </Field>
            {(hooks.data?.length ?? 0) > 0 && (
              <fieldset>
                <legend>Webhooks that receive the portal's events</legend>
                {hooks.data!.map((h) => (
                  <Check
                    key={h.id}
                    label={h.name || h.target_path}
                    checked={form.hook_ids.includes(h.id)}
                    onChange={(on) => setForm({ ...form, hook_ids: on ? [...form.hook_ids, h.id] : form.hook_ids.filter((id) => id !== h.id) })}
                  />
                ))}
              </fieldset>
            )}
          </fieldset>
          {write && <SubmitButton busy={busy} label="Save settings" busyLabel="Saving…" />}
        </form>
      )}
      <div class="page-head">
        <h2>Catalogue</h2>
        {write && (
          <a class="button primary" href={`${PORTAL_SECTION}/publish`}>
            Publish an API
          </a>
        )}
      </div>
      <ErrorNotice error={catalogue.error} />
      {catalogue.data?.apis.length === 0 && <p>No API is published yet.</p>}
      {catalogue.data && catalogue.data.apis.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Published APIs</caption>
            <thead>
              <tr>
                <th scope="col">API</th>
                <th scope="col">Plans</th>
                {write && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {catalogue.data.apis.map((e) => (
                <tr key={e.api_id}>
                  <td>
                    {e.title} <code class="muted">{e.api_id}</code>
                  </td>
                  <td class="wrap">{e.plans.map((p) => `${p.name} (${p.policy_id}, ${p.approval === 'auto' ? 'automatic' : 'manual'})`).join('; ')}</td>
                  {write && (
                    <td class="actions-cell">
                      <a class="button small" href={`${PORTAL_SECTION}/publish?api=${encodeURIComponent(e.api_id)}`} aria-label={`Edit ${e.title}`}>
                        Edit
                      </a>{' '}
                      <ConfirmButton
                        label="Unpublish"
                        name={`Unpublish ${e.title}`}
                        title={`Unpublish ${e.title}?`}
                        message="It leaves the portal's catalogue. Keys it issued keep working until revoked."
                        confirmLabel="Unpublish"
                        danger
                        small
                        onConfirm={async () => {
                          await get(api.DELETE('/api/portal/catalogue/{apiID}', { params: { path: { apiID: e.api_id } } }));
                          catalogue.reload();
                        }}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
