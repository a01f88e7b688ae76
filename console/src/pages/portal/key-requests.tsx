/**
 * The portal's key requests (GET /api/portal/key-requests), pending ones first by default: approve
 * one (the developer then collects the key), or refuse it with a reason the developer reads.
 */
import { useId, useRef, useState } from 'preact/hooks';
import { api, get } from '../../api/client';
import { asServiceError, type ServiceError } from '../../api/errors';
import { ErrorNotice } from '../../components/error-notice';
import { ListPage, useListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { useSession } from '../../session/context';
import { PORTAL_SECTION, PortalNav } from './portal-nav';

type State = 'pending' | 'approved' | 'refused' | 'revoked';
const STATES: Array<{ value: State; label: string }> = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'refused', label: 'Refused' },
  { value: 'revoked', label: 'Revoked' },
];

/** Refusing asks for the reason in a modal dialog: the developer reads it beside the request. */
function Refuse(props: { name: string; onRefuse: (reason: string) => Promise<void> }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const send = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onRefuse(reason.trim());
      dialog.current?.close();
    } catch (err) {
      setError(asServiceError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="small danger" aria-label={`Refuse ${props.name}`} onClick={() => (setError(undefined), dialog.current?.showModal())}>
        Refuse
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Refuse {props.name}?</h2>
        <ErrorNotice error={error} shownFields={['reason']} />
        <form onSubmit={(e) => void send(e)}>
          <label for={`${id}-reason`}>Reason (the developer reads it)</label>
          <textarea id={`${id}-reason`} required maxLength={500} rows={3} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <div class="actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" class="danger" disabled={busy || !reason.trim()}>
              {busy ? 'Working…' : 'Refuse'}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

export function KeyRequests() {
  const { can } = useSession();
  const write = can('portal', 'write');
  const { query, page, route } = useListPage();
  const state = STATES.find((s) => s.value === query.state)?.value ?? 'pending';
  const list = useResource(() => get(api.GET('/api/portal/key-requests', { params: { query: { p: page, page_size: 20, state } } })), [page, state]);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<ServiceError>();
  const address = (s: string, p = 1) => `${PORTAL_SECTION}/requests?${new URLSearchParams({ state: s, p: String(p) })}`;
  const approve = async (id: string, name: string) => {
    setError(undefined);
    try {
      await get(api.POST('/api/portal/key-requests/{requestID}/approve', { params: { path: { requestID: id } } }));
      setMessage(`Approved ${name}: the developer can collect the key.`);
      list.reload();
    } catch (e) {
      setError(asServiceError(e));
    }
  };
  return (
    <ListPage
      title="Key requests"
      noun="Key requests"
      caption={`${STATES.find((s) => s.value === state)!.label} key requests of your portal`}
      message={message}
      list={list}
      rows={(d) => d.requests}
      pages={(d) => d.pages}
      rowKey={(r) => r.id}
      empty={state === 'pending' ? 'No request is waiting.' : 'No request in this state.'}
      pagerLabel="Key request pages"
      page={page}
      onPage={(p) => route(address(state, p))}
      controls={
        <>
          <PortalNav />
          <ErrorNotice error={error} />
          <form class="toolbar" onSubmit={(e) => e.preventDefault()}>
            <label for="request-state">State</label>
            <select id="request-state" value={state} onChange={(e) => route(address(e.currentTarget.value))}>
              {STATES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </form>
        </>
      }
      columns={[
        { header: 'Developer', cell: (r) => r.developer_email },
        { header: 'API', cell: (r) => <code>{r.api_id}</code> },
        { header: 'Plan', cell: (r) => <code>{r.plan_id}</code> },
        { header: 'Requested', cell: (r) => dateTime(r.created_at) },
        { header: 'State', cell: (r) => `${STATES.find((s) => s.value === r.state)?.label ?? r.state}${r.reason ? `: ${r.reason}` : ''}` },
        write &&
          state === 'pending' && {
            header: 'Actions',
            class: 'actions-cell',
            cell: (r) => {
              const name = `${r.developer_email}'s request for ${r.plan_id} of ${r.api_id}`;
              return (
                <>
                  <button type="button" class="small primary" aria-label={`Approve ${name}`} onClick={() => void approve(r.id, name)}>
                    Approve
                  </button>{' '}
                  <Refuse
                    name={name}
                    onRefuse={async (reason) => {
                      await get(api.POST('/api/portal/key-requests/{requestID}/refuse', { params: { path: { requestID: r.id } }, body: { reason } }));
                      setMessage(`Refused ${name}.`);
                      list.reload();
                    }}
                  />
                </>
              );
            },
          },
      ]}
    />
  );
}
