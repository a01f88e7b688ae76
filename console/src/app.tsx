/**
 * The console: sign-in, then the sections the user's permissions allow, each at its own address
 * under /console/ (deep links work: the hosts answer index.html for every page path). The usage
 * page (with its chart library) and the Portal section are loaded on first use, so the first load stays small.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import lazy from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { api, get, onUnauthorized } from './api/client';
import { Loading, Page } from './components/page';
import { BASE, Layout, SECTIONS } from './layout';
import { ApiDetail } from './pages/apis/api-detail';
import { ADMIN_BASE, AdminApp } from './admin/admin-app';
import { ApiImport } from './pages/apis/api-import';
import { ApiList } from './pages/apis/api-list';
import { KeyCreate } from './pages/keys/key-create';
import { KeyList } from './pages/keys/key-list';
import { NotFound } from './pages/not-found';
import { PolicyForm } from './pages/policies/policy-form';
import { PolicyList } from './pages/policies/policy-list';
import { PORTAL_SECTION } from './pages/portal/portal-nav';
import { SignIn } from './pages/sign-in';
import { HookDetail } from './pages/webhooks/hook-detail';
import { HookForm } from './pages/webhooks/hook-form';
import { HookList } from './pages/webhooks/hook-list';
import { SessionContext, useSession, type Me, type Session } from './session/context';
import { allows } from './session/permissions';
import { accessKey, forgetAccessKey } from './session/storage';

const Usage = lazy(() => import('./pages/usage/usage'));
// The Portal section is one organisation task among many: its pages load on first use, outside the first load.
const PortalSettings = lazy(() => import('./pages/portal/portal-settings').then((m) => m.PortalSettings));
const Publish = lazy(() => import('./pages/portal/publish').then((m) => m.Publish));
const Developers = lazy(() => import('./pages/portal/developers').then((m) => m.Developers));
const KeyRequests = lazy(() => import('./pages/portal/key-requests').then((m) => m.KeyRequests));

/** /console/: the first section the user may read. */
function Home() {
  const { route } = useLocation();
  const { can } = useSession();
  const first = SECTIONS.find((s) => can(s.group, 'read'));
  useEffect(() => {
    if (first) route(first.href, true);
  }, [first?.href]);
  return first ? null : (
    <Page title="Nothing to show">
      <p>Your user may not see any part of the console. Ask an administrator of your organisation for permissions.</p>
    </Page>
  );
}

/** The admin side and the tenant side never share a page: each has its own credential. */
export function App() {
  return location.pathname === ADMIN_BASE || location.pathname.startsWith(`${ADMIN_BASE}/`) ? <AdminApp /> : <TenantApp />;
}

function TenantApp() {
  const [user, setUser] = useState<Me>();
  const [checking, setChecking] = useState(Boolean(accessKey()));
  const [notice, setNotice] = useState<string>();

  const signOut = (message?: string) => {
    forgetAccessKey();
    setUser(undefined);
    setNotice(message);
  };

  useEffect(() => {
    onUnauthorized(() => signOut('Your access key is no longer accepted (it may have been replaced, or your user made inactive). Sign in again.'));
    if (!accessKey()) return;
    // A reload of the tab: the kept key, checked again.
    get(api.GET('/api/users/me')).then(
      (me) => {
        setUser(me);
        setChecking(false);
      },
      () => {
        forgetAccessKey();
        setChecking(false);
      },
    );
  }, []);

  const session = useMemo<Session | null>(
    () => (user ? { user, can: (group, level) => allows(user.user_permissions, group, level), signOut: () => signOut('You are signed out.') } : null),
    [user],
  );

  return (
    <LocationProvider scope={`${BASE}/`}>
      {checking ? (
        <main id="main">
          <Loading />
        </main>
      ) : !session ? (
        <SignIn
          notice={notice}
          onSignedIn={(me) => {
            setNotice(undefined);
            setUser(me);
          }}
        />
      ) : (
        <SessionContext.Provider value={session}>
          <Layout>
            <Router>
              <Route path={`${BASE}/`} component={Home} />
              <Route path={`${BASE}/apis`} component={ApiList} />
              <Route path={`${BASE}/apis/import`} component={ApiImport} />
              <Route path={`${BASE}/apis/:id`} component={ApiDetail} />
              <Route path={`${BASE}/keys`} component={KeyList} />
              <Route path={`${BASE}/keys/new`} component={KeyCreate} />
              <Route path={`${BASE}/policies`} component={PolicyList} />
              <Route path={`${BASE}/policies/new`} component={PolicyForm} />
              <Route path={`${BASE}/policies/:id`} component={PolicyForm} />
              <Route path={`${BASE}/webhooks`} component={HookList} />
              <Route path={`${BASE}/webhooks/new`} component={HookForm} />
              <Route path={`${BASE}/webhooks/:id`} component={HookDetail} />
              <Route path={`${BASE}/usage`} component={Usage} />
              <Route path={PORTAL_SECTION} component={PortalSettings} />
              <Route path={`${PORTAL_SECTION}/publish`} component={Publish} />
              <Route path={`${PORTAL_SECTION}/developers`} component={Developers} />
              <Route path={`${PORTAL_SECTION}/requests`} component={KeyRequests} />
              <Route default component={NotFound} />
            </Router>
          </Layout>
        </SessionContext.Provider>
      )}
    </LocationProvider>
  );
}
