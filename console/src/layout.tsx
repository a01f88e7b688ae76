/**
 * The frame of every signed-in page: a skip link, the sections the user may read (the current one
 * marked for assistive technology), who is signed in, and signing out.
 */
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useSession } from './session/context';
import type { Group } from './session/permissions';

export const BASE = '/console';

export const SECTIONS: Array<{ label: string; href: string; group: Group }> = [
  { label: 'APIs', href: `${BASE}/apis`, group: 'apis' },
  { label: 'Keys', href: `${BASE}/keys`, group: 'keys' },
  { label: 'Policies', href: `${BASE}/policies`, group: 'policies' },
  { label: 'Webhooks', href: `${BASE}/webhooks`, group: 'hooks' },
  { label: 'Usage', href: `${BASE}/usage`, group: 'analytics' },
  { label: 'Portal', href: `${BASE}/developer-portal`, group: 'portal' },
];

export function Layout(props: { children: ComponentChildren }) {
  const { path } = useLocation();
  const { user, can, signOut } = useSession();
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${BASE}/`}>
          Gateway console
        </a>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.filter((s) => can(s.group, 'read')).map((s) => (
              <li key={s.href}>
                <a href={s.href} aria-current={path === s.href || path.startsWith(`${s.href}/`) ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {user.email_address} <span class="muted">({user.org_id})</span>
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}
