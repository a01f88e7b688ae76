/**
 * Publishing an API in the portal (PUT /api/portal/catalogue/{apiID}): the API, how the catalogue
 * shows it, and one to ten plans, each a policy of the organisation with a name and whether requests
 * are approved automatically or by a user. An API already published opens with its entry, to edit.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, get } from '../../api/client';
import { ErrorNotice } from '../../components/error-notice';
import { flash } from '../../components/flash';
import { Field } from '../../components/field';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Page } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { apiIdOf, apiNameOf } from '../apis/api-fields';
import { PORTAL_SECTION } from './portal-nav';

const FORM = 'portal-publish';
type Plan = { id: string; name: string; description: string; policy_id: string; approval: 'auto' | 'manual' };
const newPlan = (): Plan => ({ id: '', name: '', description: '', policy_id: '', approval: 'manual' });

export function Publish() {
  const { query, route } = useLocation();
  const apis = useResource(async () => (await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }))).apis, []);
  const policies = useResource(async () => (await get(api.GET('/api/portal/policies', { params: { query: { p: -1 } } }))).Data, []);
  const catalogue = useResource(() => get(api.GET('/api/portal/catalogue')), []);
  const [apiId, setApiId] = useState(query.api ?? '');
  const [form, setForm] = useState({ title: '', description: '' });
  const [plans, setPlans] = useState<Plan[]>([newPlan()]);
  useEffect(() => {
    const entry = catalogue.data?.apis.find((e) => e.api_id === apiId);
    if (!entry) return;
    setForm({ title: entry.title, description: entry.description });
    setPlans(entry.plans.map((p) => ({ ...p, description: p.description ?? '' })));
  }, [apiId, catalogue.data]);
  const setPlan = (i: number, patch: Partial<Plan>) => setPlans(plans.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const { busy, error, onSubmit } = useFormAction(async () => {
    const body = { description: form.description, plans, ...(form.title.trim() ? { title: form.title.trim() } : {}) };
    await get(api.PUT('/api/portal/catalogue/{apiID}', { params: { path: { apiID: apiId } }, body }));
    flash('Published.');
    route(PORTAL_SECTION);
  });
  const planFields = plans.flatMap((_, i) => ['id', 'name', 'description', 'policy_id', 'approval'].map((f) => `plans.${i}.${f}`));
  return (
    <Page title="Publish an API">
      <ErrorNotice error={apis.error ?? policies.error ?? catalogue.error ?? error} shownFields={['title', 'description', ...planFields]} />
      <form onSubmit={onSubmit}>
        <Field form={FORM} name="api_id" label="API" error={error}>
          {(c) => (
            <select {...c} required value={apiId} onChange={(e) => setApiId(e.currentTarget.value)}>
              <option value="">Choose an API</option>
              {apis.data?.map((a) => (
                <option key={apiIdOf(a)} value={apiIdOf(a)}>
                  {apiNameOf(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field form={FORM} name="title" label="Title (optional)" hint="The API's name when empty." error={error}>
          {(c) => <input {...c} maxLength={120} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} />}
        </Field>
        <Field form={FORM} name="description" label="Description (optional)" error={error}>
          {(c) => (
            <textarea {...c} rows={3} maxLength={4000} value={form.description} onInput={(e) => setForm({ ...form, description: e.currentTarget.value })} />
          )}
        </Field>
        {plans.map((p, i) => (
          <fieldset key={i}>
            <legend>Plan {i + 1}</legend>
            <Field form={FORM} name={`plans.${i}.id`} label={`Plan ${i + 1} id`} hint="Letters, digits, - and _." error={error}>
              {(c) => <input {...c} required value={p.id} onInput={(e) => setPlan(i, { id: e.currentTarget.value })} />}
            </Field>
            <Field form={FORM} name={`plans.${i}.name`} label={`Plan ${i + 1} name`} error={error}>
              {(c) => <input {...c} required maxLength={120} value={p.name} onInput={(e) => setPlan(i, { name: e.currentTarget.value })} />}
            </Field>
            <Field form={FORM} name={`plans.${i}.description`} label={`Plan ${i + 1} description`} error={error}>
              {(c) => <input {...c} maxLength={2000} value={p.description} onInput={(e) => setPlan(i, { description: e.currentTarget.value })} />}
            </Field>
            <Field form={FORM} name={`plans.${i}.policy_id`} label={`Plan ${i + 1} policy`} hint="Its limits apply to every key it issues." error={error}>
              {(c) => (
                <select {...c} required value={p.policy_id} onChange={(e) => setPlan(i, { policy_id: e.currentTarget.value })}>
                  <option value="">Choose a policy</option>
                  {policies.data?.map((pol) => (
                    <option key={pol.id} value={pol.id}>
                      {pol.name || pol.id}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field form={FORM} name={`plans.${i}.approval`} label={`Plan ${i + 1} approval`} error={error}>
              {(c) => (
                <select {...c} value={p.approval} onChange={(e) => setPlan(i, { approval: e.currentTarget.value === 'auto' ? 'auto' : 'manual' })}>
                  <option value="manual">Manual: a user approves each request</option>
                  <option value="auto">Automatic: the key is issued at once</option>
                </select>
              )}
            </Field>
            {plans.length > 1 && (
              <button type="button" class="small" onClick={() => setPlans(plans.filter((_, j) => j !== i))}>
                Remove plan {i + 1}
              </button>
            )}
          </fieldset>
        ))}
        {plans.length < 10 && (
          <p>
            <button type="button" onClick={() => setPlans([...plans, newPlan()])}>
              Add a plan
            </button>
          </p>
        )}
        <SubmitButton busy={busy} label="Publish" busyLabel="Publishing…" disabled={!apiId} />
      </form>
    </Page>
  );
}
