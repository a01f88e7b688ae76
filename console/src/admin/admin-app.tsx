/**
 * The console's admin side (/console/admin/): an installation admin signs in with the admin
 * credential (kept for this tab's life only, sent only to /admin/ routes) and runs the
 * installation's organisations. Apart from the tenant side: a dashboard user's key never reaches
 * it, and the admin credential never reaches a dashboard route.
 */
import { useState } from 'preact/hooks';
import { LocationProvider } from 'preact-iso/router';
import { api, get } from '../api/client';
import { CredentialSignIn } from '../components/credential-sign-in';
import { BASE } from '../layout';
import { adminSecret, forgetAdminSecret, keepAdminSecret } from '../session/admin-storage';
import { Organisations } from './organisations';

export const ADMIN_BASE = `${BASE}/admin`;

function AdminSignIn(props: { onSignedIn: () => void; notice: string | undefined }) {
  return (
    <CredentialSignIn
      title="Sign in as the installation's admin"
      form="admin-sign-in"
      name="admin_secret"
      label="Admin secret"
      hint="The installation's Admin-Auth secret. It is kept in this tab only, until you sign out or close the tab."
      notice={props.notice}
      keep={keepAdminSecret}
      forget={forgetAdminSecret}
      check={async () => {
        // The secret is checked by a read it allows: the first organisation.
        await get(api.GET('/admin/organisations', { params: { query: { page_size: 1 } } }));
        props.onSignedIn();
      }}
    />
  );
}

export function AdminApp() {
  const [signedIn, setSignedIn] = useState(Boolean(adminSecret()));
  const [notice, setNotice] = useState<string>();
  const signOut = (message: string) => {
    forgetAdminSecret();
    setSignedIn(false);
    setNotice(message);
  };
  if (!signedIn)
    return (
      <AdminSignIn
        notice={notice}
        onSignedIn={() => {
          setNotice(undefined);
          setSignedIn(true);
        }}
      />
    );
  return (
    <LocationProvider scope={`${ADMIN_BASE}/`}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${ADMIN_BASE}/`}>
          Gateway console: installation
        </a>
        <nav aria-label="Sections">
          <ul>
            <li>
              <a href={`${ADMIN_BASE}/`} aria-current="page">
                Organisations
              </a>
            </li>
          </ul>
        </nav>
        <div class="who">
          <span>Installation admin</span>
          <button type="button" onClick={() => signOut('You are signed out.')}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Organisations onUnauthorized={() => signOut('The admin secret is no longer accepted (it may have been rotated). Sign in again.')} />
      </main>
    </LocationProvider>
  );
}
