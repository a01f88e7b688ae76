/**
 * Pages in a simulated DOM against a stand-in service: sign-in keeps the key for the tab only,
 * the sections and controls follow the user's permissions, a 401 signs out.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { LocationProvider } from 'preact-iso/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, asked, fakeFetch, resetService } from './fake-service';

vi.hoisted(() => {
  // Before the client module takes `fetch`.
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => (globalThis as unknown as { __fake: typeof fetch }).__fake(...args)) as typeof fetch;
});
(globalThis as unknown as { __fake: typeof fakeFetch }).__fake = fakeFetch;

const { App } = await import('../src/app');
const { KeyList } = await import('../src/pages/keys/key-list');
const { HookList } = await import('../src/pages/webhooks/hook-list');
const { SessionContext } = await import('../src/session/context');
const { allows } = await import('../src/session/permissions');

const me = (permissions: Record<string, 'read' | 'write' | 'deny'>) => ({ id: 'u1', org_id: 'acme', email_address: 'me@acme.example', first_name: '', last_name: '', user_permissions: permissions, active: true });
const KEY = { key_hash: 'f'.repeat(64), alias: 'gold key', apis: ['pets'], apply_policies: [], expires: 0, is_inactive: false, quota_max: 2, quota_remaining: 0, quota_renews: 1_900_000_000, date_created: '', last_updated: '' };

function withSession(permissions: Record<string, 'read' | 'write' | 'deny'>, page: preact.JSX.Element) {
  const user = me(permissions);
  return (
    <LocationProvider scope="/console/">
      <SessionContext.Provider value={{ user, can: (g, l) => allows(permissions, g, l), signOut: () => undefined }}>{page}</SessionContext.Provider>
    </LocationProvider>
  );
}

beforeEach(() => {
  resetService();
  sessionStorage.clear();
  history.replaceState(null, '', '/console/');
  answer('GET /api/apis', { body: { apis: [], pages: 0 } });
});
afterEach(cleanup);

describe('signing in', () => {
  it('checks the key with GET /api/users/me, keeps it in sessionStorage, and shows the sections the user may read', async () => {
    answer('GET /api/users/me', (a) => (a.headers.get('authorization') === 'Bearer good-key' ? { body: me({ apis: 'write', hooks: 'read' }) } : { status: 401, body: { Status: 'Error', Message: 'Access key is not valid', Meta: null } }));
    render(<App />);
    fireEvent.input(screen.getByLabelText('Access key'), { target: { value: 'bad-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Your access key was not accepted'));
    expect(sessionStorage.length).toBe(0);

    fireEvent.input(screen.getByLabelText('Access key'), { target: { value: 'good-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['APIs', 'Webhooks']);
    expect(sessionStorage.getItem('gw-console.access-key')).toBe('good-key');
    expect(localStorage.length).toBe(0);
    await waitFor(() => expect(asked.some((a) => a.path === '/api/apis' && a.headers.get('authorization') === 'Bearer good-key')).toBe(true));
  });

  it('signs out on a 401 from any call (a rotated key), and on the sign-out button', async () => {
    sessionStorage.setItem('gw-console.access-key', 'k');
    answer('GET /api/users/me', { body: me({}) });
    answer('GET /api/apis', { status: 401, body: { Status: 'Error', Message: 'Access key is not valid', Meta: null } });
    render(<App />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('no longer accepted'));
    expect(screen.getByLabelText('Access key')).toBeTruthy();
    expect(sessionStorage.getItem('gw-console.access-key')).toBeNull();

    cleanup();
    sessionStorage.setItem('gw-console.access-key', 'k');
    answer('GET /api/apis', { body: { apis: [], pages: 0 } });
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByLabelText('Access key')).toBeTruthy();
    expect(sessionStorage.getItem('gw-console.access-key')).toBeNull();
  });
});

describe('controls follow user_permissions', () => {
  it('keys: a writer gets create, reset and revoke; a reader sees the quota bars and none of them', async () => {
    answer('GET /api/keys', { body: { keys: [KEY], pages: 1 } });
    render(withSession({ keys: 'write', apis: 'read' }, <KeyList />));
    expect((await screen.findByLabelText(/Quota of gold key: 2 of 2/)).tagName).toBe('METER');
    expect(screen.getByRole('link', { name: 'Create a key' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset quota of gold key' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke gold key' })).toBeTruthy();
    cleanup();

    render(withSession({ keys: 'read', apis: 'read' }, <KeyList />));
    expect((await screen.findByLabelText(/Quota of gold key/)).tagName).toBe('METER');
    expect(screen.queryByRole('link', { name: 'Create a key' })).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('keys: revoking asks first, then deletes by hash and says so', async () => {
    answer('GET /api/keys', { body: { keys: [KEY], pages: 1 } });
    answer(`DELETE /api/keys/${KEY.key_hash}`, { body: { Status: 'OK', Message: 'Key deleted', Meta: null } });
    render(withSession({ keys: 'write', apis: 'read' }, <KeyList />));
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke gold key' }));
    expect(asked.some((a) => a.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke', hidden: true }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Revoked gold key'));
    expect(asked.filter((a) => a.method === 'DELETE').map((a) => a.path)).toEqual([`/api/keys/${KEY.key_hash}`]);
  });

  it('webhooks: a reader gets no create link; a 403 on the list is shown in words', async () => {
    answer('GET /api/hooks', { status: 403, body: { Status: 'Error', Message: "This route needs read on hooks in the user's user_permissions; the user has deny", Meta: null } });
    render(withSession({ hooks: 'read' }, <HookList />));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You do not have permission to do this.');
    expect(alert.textContent).toContain('needs read on hooks');
    expect(screen.queryByRole('link', { name: 'Create a webhook' })).toBeNull();
  });
});
