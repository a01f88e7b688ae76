/**
 * Create a key (POST /api/keys): an alias, the APIs it opens or the policies it takes them from,
 * its rate and quota, when it expires. The answer holds the clear key this once: shown with a copy
 * button and the warning that it will not be shown again.
 */
import { useState } from 'preact/hooks';
import { api, call, get } from '../../api/client';
import type { Answer, Body } from '../../api/paths';
import { ErrorNotice } from '../../components/error-notice';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Check, Field } from '../../components/field';
import { Page } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { useResource } from '../../components/use-resource';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { AccessPicker, accessRightsOf, useApiNames } from '../access-picker';
import { limitsBody, LimitsFields, NO_LIMITS, type Limits } from '../limits-fields';

const FORM = 'key-create';

export interface KeyForm {
  alias: string;
  apis: string[];
  policies: string[];
  limits: Limits;
  /** datetime-local value; empty: never. */
  expires: string;
  inactive: boolean;
}

/** The key session the form describes. */
export function keyBody(f: KeyForm, names: Map<string, string>): Body<'/api/keys', 'post'> {
  return {
    ...(f.alias.trim() ? { alias: f.alias.trim() } : {}),
    access_rights: accessRightsOf(f.apis, names),
    ...(f.policies.length ? { apply_policies: f.policies } : {}),
    ...limitsBody(f.limits),
    ...(f.expires ? { expires: Math.floor(new Date(f.expires).getTime() / 1000) } : {}),
    ...(f.inactive ? { is_inactive: true } : {}),
  };
}

export function KeyCreate() {
  const { can } = useSession();
  const names = useApiNames();
  const policies = useResource(async () => (can('policies', 'read') ? (await get(api.GET('/api/portal/policies', { params: { query: { p: -1 } } }))).Data : []), []);
  const [form, setForm] = useState<KeyForm>({ alias: '', apis: [], policies: [], limits: { ...NO_LIMITS, quota_renewal_rate: '3600' }, expires: '', inactive: false });
  const { busy, error, onSubmit } = useFormAction(async () => {
    const { data } = await call(api.POST('/api/keys', { body: keyBody(form, names.data ?? new Map()) }));
    setCreated(data);
  });
  const [created, setCreated] = useState<Answer<'/api/keys', 'post'>>();

  if (!can('keys', 'write')) {
    return (
      <Page title="Create a key">
        <p>Your permission for keys is read only: creating keys is not available to you.</p>
      </Page>
    );
  }
  if (created) {
    return (
      <Page title="Key created">
        <SecretOnce title="Your new key" value={created.key_id} what="the key" />
        <p>
          Its hash, which the console and the service show from now on, is <code>{created.key_hash}</code>.
        </p>
        <p>
          <a class="button" href={`${BASE}/keys`}>
            Done: back to the keys
          </a>
        </p>
      </Page>
    );
  }

  return (
    <Page title="Create a key">
      <p>
        <a href={`${BASE}/keys`}>All keys</a>
      </p>
      <ErrorNotice error={error} shownFields={['alias', 'access_rights', 'apply_policies', 'rate', 'per', 'quota_max', 'quota_renewal_rate', 'expires']} />
      <form onSubmit={onSubmit}>
        <Field form={FORM} name="alias" label="Alias" hint="A name to tell the key apart (optional)." error={error}>
          {(c) => <input {...c} type="text" value={form.alias} onInput={(e) => setForm({ ...form, alias: e.currentTarget.value })} />}
        </Field>
        <AccessPicker legend="APIs this key opens" field="access_rights" names={names} selected={form.apis} onChange={(apis) => setForm({ ...form, apis })} error={error} />
        {(policies.data?.length ?? 0) > 0 && (
          <fieldset>
            <legend>Policies (they set access, rate and quota)</legend>
            <div class="choices">
              {policies.data!.map((p) => (
                <Check
                  key={p.id}
                  label={p.name || p.id}
                  checked={form.policies.includes(p.id)}
                  onChange={(on) => setForm({ ...form, policies: on ? [...form.policies, p.id] : form.policies.filter((x) => x !== p.id) })}
                />
              ))}
            </div>
          </fieldset>
        )}
        <LimitsFields form={FORM} value={form.limits} onChange={(limits) => setForm({ ...form, limits })} error={error} />
        <Field form={FORM} name="expires" label="Expires" hint="Empty: never." error={error}>
          {(c) => <input {...c} type="datetime-local" value={form.expires} onInput={(e) => setForm({ ...form, expires: e.currentTarget.value })} />}
        </Field>
        <Check label="Inactive" hint="refused until made active" checked={form.inactive} onChange={(inactive) => setForm({ ...form, inactive })} />
        <SubmitButton busy={busy} label="Create key" busyLabel="Creating…" />
      </form>
    </Page>
  );
}
