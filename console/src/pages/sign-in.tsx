/**
 * Sign in with a dashboard access key (from POST /admin/users, or a rotation): the key is checked by
 * asking the service who it belongs to (GET /api/users/me), then kept for this tab only.
 */
import { api, get } from '../api/client';
import { CredentialSignIn } from '../components/credential-sign-in';
import type { Me } from '../session/context';
import { forgetAccessKey, keepAccessKey } from '../session/storage';

export function SignIn(props: { onSignedIn: (user: Me) => void; notice?: string | undefined }) {
  return (
    <CredentialSignIn
      title="Sign in"
      form="sign-in"
      name="access_key"
      label="Access key"
      hint="Your dashboard user's access key. It is kept in this tab only, until you sign out or close the tab."
      notice={props.notice}
      keep={keepAccessKey}
      forget={forgetAccessKey}
      check={async () => props.onSignedIn(await get(api.GET('/api/users/me')))}
    />
  );
}
