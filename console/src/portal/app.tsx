/**
 * The developer portal in the browser (docs/using/developer-portal.md): one organisation's portal
 * per address, `/console/portal/{orgID}/...`. The catalogue is public; sign-up and sign-in lead to
 * the developer's keys and requests. The API reference and the usage chart are loaded on first use
 * (with their code and Chart.js), so the first load stays small.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import lazy from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { get, onUnauthorized } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page, setSiteName } from '../components/page';
import { useResource } from '../components/use-resource';
import { CataloguePage } from './catalogue';
import { forgetSessionToken, keepSessionToken, orgOfPath, PORTAL_BASE, portalApi, sessionToken, type Developer } from './client';
import { href, PortalContext, usePortal, type PortalState } from './context';
import { MyKeys } from './keys';
import { SignIn } from './sign-in';
import { SignUp } from './sign-up';

const Reference = lazy(() => import('./reference'));
const KeyUsage = lazy(() => import('./usage'));

function Header() {
  const { org, catalogue, developer, signOut } = usePortal();
  const { path } = useLocation();
  const links = developer
    ? [{ label: 'APIs', to: '' }, { label: 'My keys', to: 'keys' }]
    : [{ label: 'APIs', to: '' }, { label: 'Sign in', to: 'sign-in' }, { label: 'Sign up', to: 'sign-up' }];
  return (
    <header class="top">
      <a class="brand" href={href(org)}>
        {catalogue.title}
      </a>
      <nav aria-label="Sections">
        <ul>
          {links.map((l) => (
            <li key={l.to}>
              <a href={href(org, l.to)} aria-current={path.replace(/\/$/, '') === href(org, l.to).replace(/\/$/, '') ? 'page' : undefined}>
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {developer && (
        <div class="who">
          <span>{developer.email_address}</span>
          <button
            type="button"
            onClick={() => {
              // The session ends on the service too; the tab forgets it whatever the answer.
              void portalApi.DELETE('/portal/{orgID}/session', { params: { path: { orgID: org } } });
              signOut('You are signed out.');
            }}
          >
            Sign out
          </button>
        </div>
      )}
    </header>
  );
}

function Closed(props: { org: string | undefined }) {
  return (
    <main id="main">
      <Page title="No portal here">
        <p>
          {props.org
            ? `There is no developer portal for "${props.org}", or it is closed. Check the address you were given.`
            : 'This address names no developer portal: it ends with the organisation, as in /console/portal/acme/. Check the address you were given.'}
        </p>
      </Page>
    </main>
  );
}

function Portal(props: { org: string }) {
  const { org } = props;
  const catalogue = useResource(() => get(portalApi.GET('/portal/{orgID}/catalogue', { params: { path: { orgID: org } } })), [org]);
  const [developer, setDeveloper] = useState<Developer>();
  const [checking, setChecking] = useState(Boolean(sessionToken(org)));
  const [notice, setNotice] = useState<string>();

  const signOut = (message?: string) => {
    forgetSessionToken(org);
    setDeveloper(undefined);
    setNotice(message);
  };
  useEffect(() => {
    // A 401 with a session kept means it ended; without one it is a refused sign-in, which its page words itself.
    onUnauthorized(() => sessionToken(org) && signOut('Your session has ended (it expired, or you signed out elsewhere). Sign in again.'));
    if (!sessionToken(org)) return;
    // A reload of the tab: the kept session, checked again.
    get(portalApi.GET('/portal/{orgID}/developer', { params: { path: { orgID: org } } })).then(
      (d) => (setDeveloper(d), setChecking(false)),
      () => (forgetSessionToken(org), setChecking(false)),
    );
  }, [org]);
  // Set before the pages render: their titles name the site in their own effects, which run before this component's.
  if (catalogue.data) setSiteName(catalogue.data.title);

  const state = useMemo<PortalState | null>(
    () =>
      catalogue.data
        ? {
            org,
            catalogue: catalogue.data,
            developer,
            signedIn: (token, d) => {
              keepSessionToken(org, token);
              setNotice(undefined);
              setDeveloper(d);
            },
            signOut,
          }
        : null,
    [catalogue.data, developer],
  );

  if (catalogue.error?.status === 404) return <Closed org={org} />;
  if (!state || checking)
    return (
      <main id="main">
        <ErrorNotice error={catalogue.error} />
        {!catalogue.error && <Loading />}
      </main>
    );
  const base = `${PORTAL_BASE}/:org`;
  return (
    <PortalContext.Provider value={state}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <Router>
          <Route path={`${base}/apis/:api`} component={(p: { params: { api: string } }) => <Reference apiId={p.params.api} />} />
          <Route path={`${base}/sign-up`} component={SignUp} />
          <Route path={`${base}/sign-in`} component={SignIn} />
          <Route path={`${base}/keys`} component={MyKeys} />
          <Route path={`${base}/keys/:hash/usage`} component={(p: { params: { hash: string } }) => <KeyUsage keyHash={p.params.hash} />} />
          <Route default component={CataloguePage} />
        </Router>
      </main>
    </PortalContext.Provider>
  );
}

export function PortalApp() {
  const org = orgOfPath(location.pathname);
  return <LocationProvider scope={`${PORTAL_BASE}/`}>{org ? <Portal org={org} /> : <Closed org={undefined} />}</LocationProvider>;
}
