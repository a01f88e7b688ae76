/**
 * An API: listen path, upstream, state (editable: api-routing.tsx, with where it is live), versions, the event handlers that send to webhooks (and
 * which webhooks), and its OpenAPI document; deleting it asks first and sends the version read
 * (If-Match), so a change made meanwhile is not deleted unseen.
 */
import { useLocation, useRoute } from 'preact-iso/router';
import { api, call, get } from '../../api/client';
import { ConfirmButton } from '../../components/confirm';
import { ErrorNotice } from '../../components/error-notice';
import { flash } from '../../components/flash';
import { Loading, Page } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { dateTime, member, text } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { useState } from 'preact/hooks';
import { apiIdOf, apiNameOf, isActive, isOas, listenPathOf, upstreamOf, versionsOf } from './api-fields';
import { ApiLive, ApiRoutingForm } from './api-routing';

export function ApiDetail() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { can } = useSession();
  const { route } = useLocation();
  const entry = useResource(() => call(api.GET('/api/apis/{apiID}', { params: { path: { apiID: id } } })), [id]);
  const hooks = useResource(async () => (can('hooks', 'read') ? (await get(api.GET('/api/hooks', { params: { query: { p: -1 } } }))).hooks : []), []);
  const hookName = (hookId: string) => hooks.data?.find((h) => h.id === hookId)?.name || hookId;

  const [round, setRound] = useState(0);
  const e = entry.data?.data;
  const title = e ? apiNameOf(e) : 'API';
  const remove = async () => {
    await call(api.DELETE('/api/apis/{apiID}', { params: { path: { apiID: id }, header: entry.data?.etag ? { 'If-Match': entry.data.etag } : {} } }));
    flash(`Deleted the API “${title}”.`);
    route(`${BASE}/apis`);
  };

  return (
    <Page
      title={title}
      actions={
        e &&
        can('apis', 'write') && (
          <ConfirmButton
            danger
            label="Delete API"
            title={`Delete “${title}”?`}
            message={<p>The API and its definition are removed for good; keys keep their other APIs. This cannot be undone.</p>}
            confirmLabel="Delete"
            onConfirm={remove}
          />
        )
      }
    >
      <p>
        <a href={`${BASE}/apis`}>All APIs</a>
      </p>
      <ErrorNotice error={entry.error} onReload={entry.reload} />
      {entry.loading && !e && <Loading />}
      {e && (
        <>
          <dl class="facts">
            <dt>API id</dt>
            <dd>
              <code>{apiIdOf(e)}</code>
            </dd>
            <dt>Kind</dt>
            <dd>{isOas(e) ? 'OpenAPI (OAS)' : 'Classic'}</dd>
            <dt>Listen path</dt>
            <dd>
              <code>{listenPathOf(e)}</code>
              {member(e.api_definition, 'proxy')?.strip_listen_path === true && <span class="muted"> (stripped before the upstream)</span>}
            </dd>
            <dt>Upstream</dt>
            <dd class="wrap">{upstreamOf(e)}</dd>
            <dt>State</dt>
            <dd>{isActive(e) ? 'Active' : 'Inactive'}</dd>
            {text(e.api_definition, 'domain') && (
              <>
                <dt>Custom domain</dt>
                <dd>{text(e.api_definition, 'domain')}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{dateTime(e.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{dateTime(e.updated_at)}</dd>
          </dl>

          {can('apis', 'write') && (
            <ApiRoutingForm
              entry={e}
              etag={entry.data?.etag}
              onSaved={() => {
                entry.reload();
                setRound((r) => r + 1);
              }}
              onReload={entry.reload}
            />
          )}
          <ApiLive apiId={apiIdOf(e)} round={round} />

          <Versions entry={e} />

          <h2>Event handlers</h2>
          {e.hook_references.length === 0 ? (
            <p>No event of this API is sent to a webhook.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Events of this API sent to webhooks</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Webhook</th>
                    <th scope="col">Cooldown</th>
                  </tr>
                </thead>
                <tbody>
                  {e.hook_references.map((ref, i) => {
                    const r = ref as { event_name?: string; event_timeout?: number; hook?: { id?: string } };
                    const hookId = r.hook?.id ?? '';
                    return (
                      <tr key={i}>
                        <td>{r.event_name}</td>
                        <td>{can('hooks', 'read') ? <a href={`${BASE}/webhooks/${encodeURIComponent(hookId)}`}>{hookName(hookId)}</a> : <code>{hookId}</code>}</td>
                        <td>{r.event_timeout ?? 0} s</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}

          <h2>{isOas(e) ? 'OpenAPI document' : 'Definition'}</h2>
          {!isOas(e) && <p class="muted">A classic API has no OpenAPI document; this is its classic definition.</p>}
          <pre class="document" tabIndex={0} aria-label={isOas(e) ? 'OpenAPI document' : 'Classic definition'}>
            {JSON.stringify(isOas(e) ? e.oas : e.api_definition, null, 2)}
          </pre>
        </>
      )}
    </Page>
  );
}

function Versions(props: { entry: Parameters<typeof versionsOf>[0] }) {
  const v = versionsOf(props.entry);
  return (
    <>
      <h2>Versions</h2>
      {!v.enabled || v.versions.length === 0 ? (
        <p>This API has no other versions.</p>
      ) : (
        <>
          <p>
            Clients choose a version with the <code>{v.key || 'x-api-version'}</code> {v.location || 'header'}.
          </p>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Versions of this API</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">API</th>
                  <th scope="col">Default</th>
                </tr>
              </thead>
              <tbody>
                {v.versions.map((x) => (
                  <tr key={x.name}>
                    <td>{x.name}</td>
                    <td>
                      <a href={`${BASE}/apis/${encodeURIComponent(x.apiId)}`}>
                        <code>{x.apiId}</code>
                      </a>
                    </td>
                    <td>{x.name === v.defaultName ? 'Default' : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
