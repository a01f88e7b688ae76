/**
 * Sign-up under the portal's mode: open (sign in at once), approval (the organisation approves the
 * account first) or invitation (the invitation the organisation sent is asked for). The service
 * answers a taken e-mail like a new one, so the page never tells which e-mails exist.
 */
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Field } from '../components/field';
import { SubmitButton, useFormAction } from '../components/form-action';
import { Page, Status } from '../components/page';
import { portalApi } from './client';
import { href, usePortal } from './context';

const FORM = 'portal-sign-up';
const FIELDS = ['email_address', 'password', 'name', 'invitation'];

export function SignUp() {
  const { org, catalogue } = usePortal();
  const [form, setForm] = useState({ email_address: '', password: '', name: '', invitation: '' });
  const [state, setState] = useState<'active' | 'pending'>();
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const { busy, error, onSubmit } = useFormAction(async () => {
    const { invitation, ...rest } = form;
    const body = catalogue.sign_up === 'invitation' ? { ...rest, invitation: invitation.trim() } : rest;
    setState((await get(portalApi.POST('/portal/{orgID}/developers', { params: { path: { orgID: org } }, body }))).Meta.state);
  });
  if (state)
    return (
      <Page title="Signed up">
        {state === 'pending' ? (
          <Status>Thank you. Your account awaits the organisation's approval: you can sign in once it is approved.</Status>
        ) : (
          <Status>
            Thank you. You can <a href={href(org, 'sign-in')}>sign in</a> now.
          </Status>
        )}
      </Page>
    );
  return (
    <Page title="Sign up">
      {catalogue.sign_up === 'approval' && <p>The organisation approves every new account before it can sign in.</p>}
      {catalogue.sign_up === 'invitation' && <p>This portal is by invitation: enter the invitation you were sent with the e-mail address it was sent to.</p>}
      <ErrorNotice error={error} shownFields={FIELDS} />
      <form onSubmit={onSubmit}>
        <Field form={FORM} name="email_address" label="E-mail address" error={error}>
          {(c) => <input {...c} type="email" autoComplete="email" required value={form.email_address} onInput={set('email_address')} />}
        </Field>
        <Field form={FORM} name="password" label="Password" hint="12 to 128 characters; a few words you remember are fine." error={error}>
          {(c) => (
            <input {...c} type="password" autoComplete="new-password" required minLength={12} maxLength={128} value={form.password} onInput={set('password')} />
          )}
        </Field>
        <Field form={FORM} name="name" label="Name (optional)" error={error}>
          {(c) => <input {...c} autoComplete="name" value={form.name} onInput={set('name')} />}
        </Field>
        {catalogue.sign_up === 'invitation' && (
          <Field form={FORM} name="invitation" label="Invitation" error={error}>
            {(c) => <input {...c} autoComplete="off" required value={form.invitation} onInput={set('invitation')} />}
          </Field>
        )}
        <SubmitButton busy={busy} label="Sign up" busyLabel="Signing up…" />
      </form>
      <p>
        Already signed up? <a href={href(org, 'sign-in')}>Sign in</a>.
      </p>
    </Page>
  );
}
