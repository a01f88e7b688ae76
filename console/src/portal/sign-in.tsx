/**
 * Sign-in with e-mail and password. The service answers an unknown e-mail and a wrong password
 * alike, and so does the page; an account awaiting approval or disabled is said so; too many
 * attempts say when to try again. The session token is kept in sessionStorage for this tab only.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { get } from '../api/client';
import type { ServiceError } from '../api/errors';
import { ErrorNotice } from '../components/error-notice';
import { Field } from '../components/field';
import { SubmitButton, useFormAction } from '../components/form-action';
import { Page } from '../components/page';
import { portalApi } from './client';
import { href, usePortal } from './context';

const FORM = 'portal-sign-in';

/** What a refusal means to someone signing in, where the console's wording (access keys, permissions) would mislead. */
function SignInRefusal(props: { error: ServiceError | undefined }) {
  const { error } = props;
  if (error?.status === 401 || error?.status === 403)
    return (
      <div class="notice error" role="alert">
        <p>
          <strong>
            {error.status === 401
              ? 'The e-mail address or the password is not right.'
              : error.detail?.includes('approval')
                ? 'Your account awaits the organisation’s approval. Try again once it is approved.'
                : 'This account is disabled. Ask the organisation.'}
          </strong>
        </p>
      </div>
    );
  return <ErrorNotice error={error} shownFields={['email_address', 'password']} />;
}

export function SignIn() {
  const { org, signedIn } = usePortal();
  const { route } = useLocation();
  const [form, setForm] = useState({ email_address: '', password: '' });
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const { busy, error, onSubmit } = useFormAction(async () => {
    const answer = await get(portalApi.POST('/portal/{orgID}/sessions', { params: { path: { orgID: org } }, body: form }));
    signedIn(answer.Meta.token, answer.Meta.developer);
    route(href(org, 'keys'));
  });
  return (
    <Page title="Sign in">
      <SignInRefusal error={error} />
      <form onSubmit={onSubmit}>
        <Field form={FORM} name="email_address" label="E-mail address" error={error}>
          {(c) => <input {...c} type="email" autoComplete="username" required value={form.email_address} onInput={set('email_address')} />}
        </Field>
        <Field form={FORM} name="password" label="Password" error={error}>
          {(c) => <input {...c} type="password" autoComplete="current-password" required value={form.password} onInput={set('password')} />}
        </Field>
        <SubmitButton busy={busy} label="Sign in" busyLabel="Signing in…" />
      </form>
      <p>
        New here? <a href={href(org, 'sign-up')}>Sign up</a>.
      </p>
    </Page>
  );
}
