/**
 * The console's admin side (/console/admin/): an installation admin signs in with the admin
 * credential (kept for this tab's life only, sent only to /admin/ routes) and runs the
 * installation's organisations. Apart from the tenant side: a dashboard user's key never reaches
 * it, and the admin credential never reaches a dashboard route.
 */
import { useState } from 'preact/hooks';
import lazy from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { api, get } from '../api/client';
import { CredentialSignIn } from '../components/credential-sign-in';
import { BASE } from '../layout';
import { adminSecret, forgetAdminSecret, keepAdminSecret } from '../session/admin-storage';
import { Offboarding } from './offboarding';
import { Organisations } from './organisations';

export const ADMIN_BASE = `${BASE}/admin`;

/** Loaded on first use, with its chart library. */
const AdminUsage = lazy(() => import('./usage'));

const ADMIN_SECTIONS = [
  { href: `${ADMIN_BASE}/`, label: 'Organisations' },
  { href: `${ADMIN_BASE}/usage`, label: 'Usage' },
];

function AdminNav() {
  const { path } = useLocation();
  return (
    <nav aria-label="Sections">
      <ul>
        {ADMIN_SECTIONS.map((s) => (
          <li key={s.href}>
            <a href={s.href} aria-current={path === s.href ? 'page' : undefined}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

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
  const expired = () => signOut('The admin secret is no longer accepted (it may have been rotated). Sign in again.');
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
        <AdminNav />
        <div class="who">
          <span>Installation admin</span>
          <button type="button" onClick={() => signOut('You are signed out.')}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Router>
          <Route path={`${ADMIN_BASE}/usage`} component={() => <AdminUsage onUnauthorized={expired} />} />
          <Route
            path={`${ADMIN_BASE}/offboarding/:orgId`}
            component={(p: { params: { orgId: string } }) => <Offboarding orgId={p.params.orgId} onUnauthorized={expired} />}
          />
          <Route default component={() => <Organisations onUnauthorized={expired} />} />
        </Router>
      </main>
    </LocationProvider>
  );
}
