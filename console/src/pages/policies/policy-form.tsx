/**
 * A policy: create one (/console/policies/new) or see and edit one (/console/policies/<id>): its
 * rate and quota and the APIs it grants, picked from the organisation's. An edit sends the version
 * read (If-Match): if someone changed the policy meanwhile, the service refuses (412) and the page
 * offers to reload it. Members the form does not show are sent back as they were.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso/router';
import { api, call } from '../../api/client';
import type { Answer, Body } from '../../api/paths';
import { ErrorNotice } from '../../components/error-notice';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Check, Field } from '../../components/field';
import { flash } from '../../components/flash';
import { Loading, Page, Status } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { AccessPicker, accessRightsOf, useApiNames } from '../access-picker';
import { limitsBody, LimitsFields, limitsOf, NO_LIMITS, type Limits } from '../limits-fields';

const FORM = 'policy';
type Policy = Answer<'/api/portal/policies/{policyID}', 'get'>;

interface PolicyFormState {
  id: string;
  name: string;
  limits: Limits;
  apis: string[];
  active: boolean;
}

const EMPTY: PolicyFormState = { id: '', name: '', limits: NO_LIMITS, apis: [], active: true };
const formOf = (p: Policy): PolicyFormState => ({ id: p.id, name: p.name ?? '', limits: limitsOf(p), apis: Object.keys(p.access_rights ?? {}), active: p.active !== false });

/** The policy to send: what was read (members the form does not show), with the form over it. */
export function policyBody(f: PolicyFormState, names: Map<string, string>, read?: Policy): Body<'/api/portal/policies/{policyID}', 'put'> {
  const { rate: _r, per: _p, quota_max: _q, quota_renewal_rate: _w, ...kept } = read ?? ({} as Partial<Policy>);
  return { ...kept, id: f.id, name: f.name.trim(), active: f.active, access_rights: accessRightsOf(f.apis, names), ...limitsBody(f.limits) };
}

export function PolicyForm() {
  const { params } = useRoute();
  const id = params.id;
  const isNew = !id;
  const { can } = useSession();
  const { route } = useLocation();
  const write = can('policies', 'write');
  const names = useApiNames();
  const read = useResource(async () => (id ? call(api.GET('/api/portal/policies/{policyID}', { params: { path: { policyID: id } } })) : undefined), [id]);
  const [form, setForm] = useState<PolicyFormState>(EMPTY);
  const [saved, setSaved] = useState('');
  useEffect(() => {
    if (read.data) setForm(formOf(read.data.data));
  }, [read.data]);

  const { busy, error, setError, onSubmit } = useFormAction(async () => {
    setSaved('');
    const nameMap = names.data ?? new Map<string, string>();
    if (isNew) {
      // No id typed: the service generates one.
      const { id: _id, ...rest } = policyBody(form, nameMap);
      const given = form.id.trim();
      const { data } = await call(api.POST('/api/portal/policies', { body: { ...rest, ...(given ? { id: given } : {}) } }));
      flash(`Created the policy ${form.name.trim() || data.ID}.`);
      route(`${BASE}/policies`);
      return;
    }
    await call(
      api.PUT('/api/portal/policies/{policyID}', {
        params: { path: { policyID: id! }, header: read.data?.etag ? { 'If-Match': read.data.etag } : {} },
        body: policyBody(form, nameMap, read.data?.data),
      }),
    );
    setSaved('Saved.');
    read.reload();
  });

  const title = isNew ? 'Create a policy' : read.data ? `Policy “${read.data.data.name || read.data.data.id}”` : 'Policy';
  if (isNew && !write) {
    return (
      <Page title={title}>
        <p>Your permission for policies is read only: creating policies is not available to you.</p>
      </Page>
    );
  }

  const reloadLatest = () => {
    setError(undefined);
    read.reload();
  };

  return (
    <Page title={title}>
      <p>
        <a href={`${BASE}/policies`}>All policies</a>
      </p>
      <ErrorNotice error={read.error} />
      {!isNew && read.loading && !read.data && <Loading />}
      {saved && <Status>{saved}</Status>}
      <ErrorNotice error={error} onReload={reloadLatest} shownFields={['id', 'name', 'access_rights', 'rate', 'per', 'quota_max', 'quota_renewal_rate']} />
      {!write && read.data && <PolicyFacts policy={read.data.data} names={names.data} />}
      {write && (isNew || read.data) && (
        <form onSubmit={onSubmit}>
          {isNew ? (
            <Field form={FORM} name="id" label="Policy id" hint="Optional: one is generated when empty." error={error}>
              {(c) => <input {...c} type="text" value={form.id} onInput={(e) => setForm({ ...form, id: e.currentTarget.value })} />}
            </Field>
          ) : (
            <p>
              Policy id <code>{form.id}</code>
            </p>
          )}
          <Field form={FORM} name="name" label="Name" error={error}>
            {(c) => <input {...c} type="text" required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />}
          </Field>
          <LimitsFields form={FORM} value={form.limits} onChange={(limits) => setForm({ ...form, limits })} error={error} />
          <AccessPicker legend="APIs this policy grants" field="access_rights" names={names} selected={form.apis} onChange={(apis) => setForm({ ...form, apis })} error={error} />
          <Check label="Active" checked={form.active} onChange={(active) => setForm({ ...form, active })} />
          <SubmitButton busy={busy} label={isNew ? 'Create policy' : 'Save'} busyLabel="Saving…" />
        </form>
      )}
    </Page>
  );
}

/** A policy for a user who may only read it. */
function PolicyFacts(props: { policy: Policy; names: Map<string, string> | undefined }) {
  const p = props.policy;
  const n = (v: number | undefined) => (v === undefined ? 'not set' : String(v));
  return (
    <dl class="facts">
      <dt>Policy id</dt>
      <dd>
        <code>{p.id}</code>
      </dd>
      <dt>Name</dt>
      <dd>{p.name}</dd>
      <dt>Rate</dt>
      <dd>
        {n(p.rate)} per {n(p.per)} s
      </dd>
      <dt>Quota</dt>
      <dd>
        {p.quota_max !== undefined && p.quota_max > 0 ? `${p.quota_max} per ${n(p.quota_renewal_rate)} s` : 'unlimited'}
      </dd>
      <dt>APIs</dt>
      <dd>{Object.keys(p.access_rights ?? {}).map((id) => props.names?.get(id) ?? id).join(', ') || 'none'}</dd>
      <dt>State</dt>
      <dd>{p.active === false ? 'Inactive' : 'Active'}</dd>
    </dl>
  );
}
