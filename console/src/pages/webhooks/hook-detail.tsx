/**
 * A webhook: what it is, editing it (If-Match; a 412 offers to reload), sending it a test Ping,
 * rotating its signing secret (the new one shown once), deleting it, and its deliveries log with
 * a status filter, response codes and a redeliver button. The log refreshes itself while a
 * delivery is pending, so a test or a redelivery shows its outcome without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso/router';
import { api, call, get } from '../../api/client';
import { asServiceError, type ServiceError } from '../../api/errors';
import type { Answer } from '../../api/paths';
import { ConfirmButton } from '../../components/confirm';
import { ErrorNotice } from '../../components/error-notice';
import { flash } from '../../components/flash';
import { Loading, Page, Status } from '../../components/page';
import { Pager } from '../../components/pager';
import { SecretOnce } from '../../components/secret-once';
import { useResource, type Resource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { hookBody, hookFieldNames, HookFields, hookFormOf, MASK, type HookFormState } from './hook-fields';

type Delivery = Answer<'/api/hooks/{hookID}/deliveries', 'get'>['deliveries'][number];
const STATUSES = ['pending', 'delivered', 'failed'] as const;
/** While a delivery is pending, the log is read again this often. */
const POLL_MS = 1500;

export function HookDetail() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { can } = useSession();
  const { route } = useLocation();
  const write = can('hooks', 'write');
  const hook = useResource(() => call(api.GET('/api/hooks/{hookID}', { params: { path: { hookID: id } } })), [id]);
  const [form, setForm] = useState<HookFormState>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const [message, setMessage] = useState('');
  const [secret, setSecret] = useState<string>();
  const [logPage, setLogPage] = useState(1);
  const log = useResource(() => get(api.GET('/api/hooks/{hookID}/deliveries', { params: { path: { hookID: id }, query: { p: logPage, page_size: 50 } } })), [id, logPage]);
  useEffect(() => {
    if (hook.data) setForm(hookFormOf(hook.data.data));
  }, [hook.data]);

  const h = hook.data?.data;
  const title = h ? `Webhook “${h.name || h.id}”` : 'Webhook';
  const act = async (what: () => Promise<string>) => {
    setError(undefined);
    setMessage('');
    try {
      setMessage(await what());
    } catch (e) {
      setError(asServiceError(e));
    }
  };
  const save = async (e: Event) => {
    e.preventDefault();
    if (!form) return;
    setBusy(true);
    await act(async () => {
      await call(api.PUT('/api/hooks/{hookID}', { params: { path: { hookID: id }, header: hook.data?.etag ? { 'If-Match': hook.data.etag } : {} }, body: hookBody(form) }));
      hook.reload();
      return 'Saved.';
    });
    setBusy(false);
  };
  const sendTest = () =>
    act(async () => {
      const { data } = await call(api.POST('/api/hooks/{hookID}/test', { params: { path: { hookID: id } } }));
      log.reload();
      return `Test sent: a Ping event is queued (delivery ${data.Meta.delivery_id}). Its outcome shows in the log below.`;
    });
  const rotate = async () => {
    const { data } = await call(api.POST('/api/hooks/{hookID}/signing-secret', { params: { path: { hookID: id } } }));
    setSecret(data.signing_secret);
    setMessage('');
  };
  const remove = async () => {
    await call(api.DELETE('/api/hooks/{hookID}', { params: { path: { hookID: id }, header: hook.data?.etag ? { 'If-Match': hook.data.etag } : {} } }));
    flash(`Deleted the webhook ${h?.name || id}.`);
    route(`${BASE}/webhooks`);
  };

  return (
    <Page
      title={title}
      actions={
        h &&
        write && (
          <>
            <button type="button" onClick={() => void sendTest()}>
              Send a test
            </button>
            <ConfirmButton
              label="Rotate signing secret"
              title="Rotate the signing secret?"
              message={<p>Deliveries are signed with a new secret from now on, and with the old one too for 24 hours, so receivers can switch.</p>}
              confirmLabel="Rotate"
              onConfirm={rotate}
            />
            <ConfirmButton danger label="Delete webhook" title={`Delete ${title}?`} message={<p>It is removed for good; event handlers naming it stop reaching it.</p>} confirmLabel="Delete" onConfirm={remove} />
          </>
        )
      }
    >
      <p>
        <a href={`${BASE}/webhooks`}>All webhooks</a>
      </p>
      <ErrorNotice error={hook.error} />
      {hook.loading && !h && <Loading />}
      {message && <Status>{message}</Status>}
      {secret && <SecretOnce title="The new signing secret" value={secret} what="the new signing secret" />}
      <ErrorNotice
        error={error}
        shownFields={form ? hookFieldNames(form) : []}
        onReload={() => {
          setError(undefined);
          hook.reload();
        }}
      />
      {h && (
        <dl class="facts">
          <dt>Webhook id</dt>
          <dd>
            <code>{h.id}</code>
          </dd>
          <dt>Method and target</dt>
          <dd class="wrap">
            {h.method} {h.target_path}
          </dd>
          <dt>Cooldown</dt>
          <dd>{h.event_timeout === undefined ? 'default (60 s)' : `${h.event_timeout} s`}</dd>
          <dt>Headers</dt>
          <dd>{Object.keys(h.header_map).length ? Object.keys(h.header_map).map((n) => `${n}: ${MASK}`).join(', ') : 'none'}</dd>
          <dt>Updated</dt>
          <dd>{dateTime(h.updated_at)}</dd>
        </dl>
      )}
      {h && write && form && (
        <details class="edit">
          <summary>Edit this webhook</summary>
          <form onSubmit={(e) => void save(e)}>
            <HookFields form={`hook-${id}`} value={form} onChange={setForm} error={error} editing />
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          </form>
        </details>
      )}
      {h && <Deliveries hookId={id} log={log} page={logPage} onPage={setLogPage} write={write} onMessage={setMessage} onError={setError} />}
    </Page>
  );
}

function Deliveries(props: {
  hookId: string;
  log: Resource<Answer<'/api/hooks/{hookID}/deliveries', 'get'>>;
  page: number;
  onPage: (p: number) => void;
  write: boolean;
  onMessage: (m: string) => void;
  onError: (e: ServiceError | undefined) => void;
}) {
  const { log } = props;
  const [status, setStatus] = useState('');
  const pending = log.data?.deliveries.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!pending || log.loading) return;
    const t = setTimeout(log.reload, POLL_MS);
    return () => clearTimeout(t);
  }, [pending, log.loading, log.data]);

  const redeliver = async (d: Delivery) => {
    props.onError(undefined);
    try {
      await call(api.POST('/api/hooks/{hookID}/deliveries/{deliveryID}/redeliver', { params: { path: { hookID: props.hookId, deliveryID: d.id } } }));
      props.onMessage(`Redelivery of ${d.event} queued.`);
      log.reload();
    } catch (e) {
      props.onError(asServiceError(e));
    }
  };
  const rows = (log.data?.deliveries ?? []).filter((d) => !status || d.status === status);
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div class="toolbar">
        <label for="delivery-status">Status</label>
        <select id="delivery-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">All</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
        <button type="button" onClick={log.reload}>
          Refresh
        </button>
        {pending && <span class="muted">Refreshing while a delivery is pending…</span>}
      </div>
      <ErrorNotice error={log.error} />
      {log.loading && !log.data && <Loading />}
      {log.data &&
        (rows.length === 0 ? (
          <p>{status ? `No ${status} delivery on this page.` : 'No delivery yet. Send a test to see one.'}</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Deliveries of this webhook, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Response</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Error</th>
                  <th scope="col">Next attempt</th>
                  {props.write && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.id} data-delivery={d.id}>
                    <td>{d.event}</td>
                    <td>{dateTime(d.created_at)}</td>
                    <td>
                      <span class={`badge ${d.status}`}>{d.status}</span>
                    </td>
                    <td>{d.attempts}</td>
                    <td>{d.response_code ?? ''}</td>
                    <td>{d.duration_ms === undefined ? '' : `${Math.round(d.duration_ms)} ms`}</td>
                    <td>{d.error ?? ''}</td>
                    <td>{d.status === 'pending' ? dateTime(d.next_attempt_at) : ''}</td>
                    {props.write && (
                      <td>
                        <button type="button" class="small" aria-label={`Redeliver ${d.event} of ${dateTime(d.created_at)}`} onClick={() => void redeliver(d)}>
                          Redeliver
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {log.data && <Pager label="Delivery pages" page={props.page} pages={log.data.pages} onPage={props.onPage} />}
    </section>
  );
}
