/**
 * A sign-in page with one secret field: the secret is kept (for this tab only) before `check` asks
 * the service with it, and forgotten again when the service refuses it.
 */
import { useState } from 'preact/hooks';
import { ErrorNotice } from './error-notice';
import { Field } from './field';
import { SubmitButton, useFormAction } from './form-action';
import { Page } from './page';

export function CredentialSignIn(props: {
  title: string;
  form: string;
  name: string;
  label: string;
  hint: string;
  notice: string | undefined;
  keep: (secret: string) => void;
  forget: () => void;
  check: () => Promise<void>;
}) {
  const [secret, setSecret] = useState('');
  const { busy, error, onSubmit } = useFormAction(async () => {
    props.keep(secret.trim());
    try {
      await props.check();
    } catch (err) {
      props.forget();
      throw err;
    }
  });
  return (
    <main id="main" class="sign-in">
      <Page title={props.title}>
        {props.notice && (
          <p class="notice" role="status">
            {props.notice}
          </p>
        )}
        <ErrorNotice error={error} />
        <form onSubmit={onSubmit}>
          <Field form={props.form} name={props.name} label={props.label} hint={props.hint}>
            {(c) => <input {...c} type="password" autoComplete="off" required value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />}
          </Field>
          <SubmitButton busy={busy} label="Sign in" busyLabel="Signing in…" disabled={!secret.trim()} />
        </form>
      </Page>
    </main>
  );
}
