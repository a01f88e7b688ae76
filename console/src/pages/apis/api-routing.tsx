/**
 * What routes an API's traffic, editable (listen path, upstream, strip, active, where the key is
 * read), and where it is live: each gateway that follows the routing table, and whether it serves
 * the API as it is now. The edit sends the version read (If-Match) and every other member of the
 * definition as it was read; the service's refusals (a listen path taken or not allowed, a domain
 * not granted) show beside their field.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call, get } from '../../api/client';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { ErrorNotice } from '../../components/error-notice';
import { Check, Field } from '../../components/field';
import { Status } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { dateTime, member, text } from '../../format';
import { apiIdOf, isActive, type ApiEntry } from './api-fields';

const FORM = 'api-routing';

interface Routing {
  listenPath: string;
  targetUrl: string;
  strip: boolean;
  active: boolean;
  keyHeader: string;
  keyParam: string;
}

const routingOf = (e: ApiEntry): Routing => {
  const auth = member(e.api_definition, 'auth');
  return {
    listenPath: text(e.api_definition, 'proxy', 'listen_path'),
    targetUrl: text(e.api_definition, 'proxy', 'target_url'),
    strip: member(e.api_definition, 'proxy')?.strip_listen_path === true,
    active: isActive(e),
    keyHeader: text(auth, 'auth_header_name'),
    keyParam: auth?.use_param === true ? text(auth, 'param_name') : '',
  };
};

/** The definition to send: the one read, with the form's members over it. */
function definitionWith(e: ApiEntry, r: Routing): Record<string, unknown> {
  const def = (member(e.api_definition) ?? {}) as Record<string, unknown>;
  const auth = member(def, 'auth') ?? {};
  return {
    ...def,
    active: r.active,
    proxy: { ...(member(def, 'proxy') ?? {}), listen_path: r.listenPath.trim(), target_url: r.targetUrl.trim(), strip_listen_path: r.strip },
    auth: {
      ...auth,
      auth_header_name: r.keyHeader.trim() || 'Authorization',
      use_param: r.keyParam.trim() !== '',
      ...(r.keyParam.trim() ? { param_name: r.keyParam.trim() } : {}),
    },
  };
}

export function ApiRoutingForm(props: { entry: ApiEntry; etag: string | undefined; onSaved: () => void; onReload: () => void }) {
  const [form, setForm] = useState<Routing>(() => routingOf(props.entry));
  const [saved, setSaved] = useState('');
  useEffect(() => setForm(routingOf(props.entry)), [props.entry]);

  const { busy, error, setError, onSubmit } = useFormAction(async () => {
    setSaved('');
    await call(
      api.PUT('/api/apis/{apiID}', {
        params: { path: { apiID: apiIdOf(props.entry) }, header: props.etag ? { 'If-Match': props.etag } : {} },
        body: { api_definition: definitionWith(props.entry, form) },
      }),
    );
    setSaved('Saved. Gateways that follow the routing table apply it within seconds.');
    props.onSaved();
  });

  const shown = ['proxy.listen_path', 'proxy.target_url', 'auth.auth_header_name', 'auth.param_name', 'domain'];
  return (
    <form onSubmit={onSubmit} aria-labelledby="routing-title">
      <h2 id="routing-title">Routing</h2>
      {saved && <Status>{saved}</Status>}
      <ErrorNotice
        error={error}
        onReload={() => {
          setError(undefined);
          props.onReload();
        }}
        shownFields={shown}
      />
      <Field form={FORM} name="proxy.listen_path" label="Listen path" hint="Requests whose path starts with it reach this API, by whole segments." error={error}>
        {(c) => <input {...c} type="text" required value={form.listenPath} onInput={(e) => setForm({ ...form, listenPath: e.currentTarget.value })} />}
      </Field>
      <Field form={FORM} name="proxy.target_url" label="Upstream URL" error={error}>
        {(c) => <input {...c} type="url" required value={form.targetUrl} onInput={(e) => setForm({ ...form, targetUrl: e.currentTarget.value })} />}
      </Field>
      <Check label="Strip the listen path before the upstream" checked={form.strip} onChange={(strip) => setForm({ ...form, strip })} />
      <Check label="Active" checked={form.active} onChange={(active) => setForm({ ...form, active })} />
      <Field form={FORM} name="auth.auth_header_name" label="Key header" hint="Where gateways read the key (Authorization when empty)." error={error}>
        {(c) => <input {...c} type="text" value={form.keyHeader} onInput={(e) => setForm({ ...form, keyHeader: e.currentTarget.value })} />}
      </Field>
      <Field form={FORM} name="auth.param_name" label="Key query parameter" hint="Optional: the key may also come in this query parameter." error={error}>
        {(c) => <input {...c} type="text" value={form.keyParam} onInput={(e) => setForm({ ...form, keyParam: e.currentTarget.value })} />}
      </Field>
      <SubmitButton busy={busy} label="Save routing" busyLabel="Saving…" />
    </form>
  );
}

const STATE = { applied: 'Applied', pending: 'Pending', left_out: 'Left out' } as const;

/** Where the API is live: read again after each save, and on demand. */
export function ApiLive(props: { apiId: string; round: number }) {
  const live = useResource(async () => (await get(api.GET('/api/apis/{apiID}/gateways', { params: { path: { apiID: props.apiId } } }))).gateways, [props.apiId, props.round]);
  return (
    <section aria-labelledby="live-title">
      <h2 id="live-title">Where it is live</h2>
      <ErrorNotice error={live.error} onReload={live.reload} />
      {live.data && live.data.length === 0 && <p>No gateway follows the routing table yet (gwctl gateway nginx reports here).</p>}
      {live.data && live.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Gateways and whether they serve this API as it is now</caption>
            <thead>
              <tr>
                <th scope="col">Gateway</th>
                <th scope="col">Kind</th>
                <th scope="col">State</th>
                <th scope="col">Applied since</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {live.data.map((g) => (
                <tr key={g.gateway_id}>
                  <td>
                    <code>{g.gateway_id}</code>
                  </td>
                  <td>{g.kind}</td>
                  <td>{STATE[g.state]}</td>
                  <td>{dateTime(g.applied_at)}</td>
                  <td>{g.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" onClick={live.reload}>
        Check again
      </button>
    </section>
  );
}
