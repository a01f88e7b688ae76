/**
 * The portal's developers (GET /api/portal/developers), by state: approve one awaiting approval,
 * disable an active one, enable a disabled one. Invitations (for the invitation sign-up mode) are
 * issued here too; each is shown once, like a key.
 */
import { useState } from 'preact/hooks';
import { api, get } from '../../api/client';
import { asServiceError, type ServiceError } from '../../api/errors';
import { ConfirmButton } from '../../components/confirm';
import { ErrorNotice } from '../../components/error-notice';
import { Field } from '../../components/field';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { ListPage, useListPage } from '../../components/list-page';
import { SecretOnce } from '../../components/secret-once';
import { useResource } from '../../components/use-resource';
import { dateTime } from '../../format';
import { useSession } from '../../session/context';
import { PORTAL_SECTION, PortalNav } from './portal-nav';

type State = 'active' | 'pending' | 'disabled';
const STATES: Array<{ value: State | ''; label: string }> = [
  { value: '', label: 'Every state' },
  { value: 'pending', label: 'Awaiting approval' },
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

function Invite() {
  const [email, setEmail] = useState('');
  const [issued, setIssued] = useState<{ invitation: string; email_address: string; expires_at: string }>();
  const { busy, error, onSubmit } = useFormAction(async () => {
    setIssued((await get(api.POST('/api/portal/invitations', { body: { email_address: email.trim() } }))).Meta);
    setEmail('');
  });
  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a developer</h2>
      {issued && (
        <SecretOnce
          title={`Invitation for ${issued.email_address} (valid until ${dateTime(issued.expires_at)})`}
          value={issued.invitation}
          what="the invitation"
        />
      )}
      <ErrorNotice error={error} shownFields={['email_address']} />
      <form onSubmit={onSubmit} class="toolbar">
        <Field form="portal-invite" name="email_address" label="Developer's e-mail address" error={error}>
          {(c) => <input {...c} type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
        </Field>
        <SubmitButton busy={busy} label="Issue an invitation" busyLabel="Issuing…" />
      </form>
    </section>
  );
}

export function Developers() {
  const { can } = useSession();
  const write = can('portal', 'write');
  const { query, page, route } = useListPage();
  const state = STATES.some((s) => s.value === query.state) ? (query.state as State) : undefined;
  const list = useResource(
    () => get(api.GET('/api/portal/developers', { params: { query: { p: page, page_size: 20, ...(state ? { state } : {}) } } })),
    [page, state],
  );
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<ServiceError>();
  const setState = async (id: string, to: 'active' | 'disabled', what: string) => {
    setError(undefined);
    await get(api.PUT('/api/portal/developers/{developerID}', { params: { path: { developerID: id } }, body: { state: to } }));
    setMessage(what);
    list.reload();
  };
  const address = (s: string, p = 1) => `${PORTAL_SECTION}/developers?${new URLSearchParams({ ...(s ? { state: s } : {}), p: String(p) })}`;
  return (
    <>
      <ListPage
        title="Developers"
        noun="Developers"
        caption="Developers of your portal"
        message={message}
        list={list}
        rows={(d) => d.developers}
        pages={(d) => d.pages}
        rowKey={(d) => d.id}
        empty={state ? 'No developer in this state.' : 'No developer has signed up yet.'}
        pagerLabel="Developer pages"
        page={page}
        onPage={(p) => route(address(state ?? '', p))}
        controls={
          <>
            <PortalNav />
            <ErrorNotice error={error} />
            <form class="toolbar" onSubmit={(e) => e.preventDefault()}>
              <label for="developer-state">State</label>
              <select id="developer-state" value={state ?? ''} onChange={(e) => route(address(e.currentTarget.value))}>
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
          { header: 'E-mail address', cell: (d) => d.email_address },
          { header: 'Name', cell: (d) => d.name },
          { header: 'State', cell: (d) => STATES.find((s) => s.value === d.state)?.label ?? d.state },
          { header: 'Signed up', cell: (d) => dateTime(d.created_at) },
          write && {
            header: 'Actions',
            class: 'actions-cell',
            cell: (d) =>
              d.state === 'active' ? (
                <ConfirmButton
                  label="Disable"
                  name={`Disable ${d.email_address}`}
                  title={`Disable ${d.email_address}?`}
                  message="Their sessions are refused at once; their keys keep working until revoked."
                  confirmLabel="Disable"
                  danger
                  small
                  onConfirm={() => setState(d.id, 'disabled', `Disabled ${d.email_address}.`)}
                />
              ) : (
                <button
                  type="button"
                  class="small"
                  aria-label={`${d.state === 'pending' ? 'Approve' : 'Enable'} ${d.email_address}`}
                  onClick={() => {
                    const done = `${d.state === 'pending' ? 'Approved' : 'Enabled'} ${d.email_address}.`;
                    setState(d.id, 'active', done).catch((e) => setError(asServiceError(e)));
                  }}
                >
                  {d.state === 'pending' ? 'Approve' : 'Enable'}
                </button>
              ),
          },
        ]}
      />
      {write && <Invite />}
    </>
  );
}
