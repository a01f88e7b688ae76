/** The Portal section's own pages, as tabs under its heading (each an address of its own). */
import { useLocation } from 'preact-iso/router';
import { BASE } from '../../layout';

export const PORTAL_SECTION = `${BASE}/developer-portal`;

const TABS = [
  { label: 'Settings and catalogue', href: PORTAL_SECTION },
  { label: 'Developers', href: `${PORTAL_SECTION}/developers` },
  { label: 'Key requests', href: `${PORTAL_SECTION}/requests` },
];

export function PortalNav() {
  const { path } = useLocation();
  return (
    <nav aria-label="Portal pages" class="tabs">
      <ul>
        {TABS.map((t) => (
          <li key={t.href}>
            <a href={t.href} aria-current={path === t.href ? 'page' : undefined}>
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
