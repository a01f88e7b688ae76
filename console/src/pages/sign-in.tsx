/**
 * Sign in with a dashboard access key (from POST /admin/users, or a rotation): the key is checked by
 * asking the service who it belongs to (GET /api/users/me), then kept for this tab only.
 */
import { useState } from 'preact/hooks';
import { api, get } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { SubmitButton, useFormAction } from '../components/form-action';
import { Field } from '../components/field';
import { Page } from '../components/page';
import { forgetAccessKey, keepAccessKey } from '../session/storage';
import type { Me } from '../session/context';

export function SignIn(props: { onSignedIn: (user: Me) => void; notice?: string | undefined }) {
  const [key, setKey] = useState('');
  const { busy, error, onSubmit } = useFormAction(async () => {
    keepAccessKey(key.trim());
    try {
      props.onSignedIn(await get(api.GET('/api/users/me')));
    } catch (err) {
      forgetAccessKey();
      throw err;
    }
  });
  return (
    <main id="main" class="sign-in">
      <Page title="Sign in">
        {props.notice && (
          <p class="notice" role="status">
            {props.notice}
          </p>
        )}
        <ErrorNotice error={error} />
        <form onSubmit={onSubmit}>
          <Field form="sign-in" name="access_key" label="Access key" hint="Your dashboard user's access key. It is kept in this tab only, until you sign out or close the tab.">
            {(c) => <input {...c} type="password" autoComplete="off" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
          </Field>
          <SubmitButton busy={busy} label="Sign in" busyLabel="Signing in…" disabled={!key.trim()} />
        </form>
      </Page>
    </main>
  );
}
