/**
 * The developer portal's web app and the console's Portal section in a simulated DOM against a
 * stand-in service: a closed portal, the catalogue with its plans' limits, sign-up under each mode,
 * sign-in (the session token kept for the tab only, sent to the portal's routes only; a refusal in
 * words that do not tell which e-mails exist; a 429 with when to retry), and the console's Portal
 * pages following the user's `portal` rights.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { LocationProvider } from 'preact-iso/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, asked, fakeFetch, resetService } from './fake-service';

vi.hoisted(() => {
  // Before the client modules take `fetch`.
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => (globalThis as unknown as { __fake: typeof fetch }).__fake(...args)) as typeof fetch;
});
(globalThis as unknown as { __fake: typeof fakeFetch }).__fake = fakeFetch;

const { PortalApp } = await import('../src/portal/app');
const { orgOfPath } = await import('../src/portal/client');
const { quotaText, rateText } = await import('../src/portal/format');
const { PortalSettings } = await import('../src/pages/portal/portal-settings');
const { KeyRequests } = await import('../src/pages/portal/key-requests');
const { Developers } = await import('../src/pages/portal/developers');
const { SessionContext } = await import('../src/session/context');
const { allows } = await import('../src/session/permissions');

const PLAN = { id: 'pro', name: 'Pro', description: 'For production', approval: 'manual', quota_max: 1000, quota_renewal_rate: 86_400, rate: 5, per: 1 };
const PETS = { api_id: 'pets', title: 'Pets', description: 'All the pets', kind: 'oas', plans: [PLAN] };
const catalogue = (sign_up = 'open') => ({ title: 'Acme APIs', sign_up, apis: [PETS] });
const DEVELOPER = { id: 'd1', org_id: 'acme', email_address: 'ada@example.com', name: '', state: 'active', created_at: '', updated_at: '' };
const error = (status: number, Message: string, headers: Record<string, string> = {}) => ({ status, body: { Status: 'Error', Message, Meta: null }, headers });

beforeEach(() => {
  resetService();
  sessionStorage.clear();
  history.replaceState(null, '', '/console/portal/acme/');
});
afterEach(cleanup);

describe("the portal's words", () => {
  it('reads limits as a developer would, and the organisation from the address', () => {
    expect(rateText(5, 1)).toBe('5 requests per second');
    expect(rateText(100, 60)).toBe('100 requests per minute');
    expect(rateText(0, 0)).toBe('No rate limit');
    expect(quotaText(1000, 86_400)).toBe('1000 requests per day');
    expect(quotaText(10, 7200)).toBe('10 requests per 2 hours');
    expect(quotaText(-1, 0)).toBe('Unlimited quota');
    expect(orgOfPath('/console/portal/acme/keys')).toBe('acme');
    expect(orgOfPath('/console/portal/')).toBeUndefined();
  });
});

describe('the developer portal', () => {
  it('says so when the organisation has no portal, or it is off', async () => {
    answer('GET /portal/acme/catalogue', error(404, 'The organisation has no portal, or it is off'));
    render(<PortalApp />);
    await screen.findByRole('heading', { level: 1, name: 'No portal here' });
  });

  it('shows the catalogue with each plan’s limits, and asks a visitor to sign in before requesting', async () => {
    answer('GET /portal/acme/catalogue', { body: catalogue() });
    render(<PortalApp />);
    const api = await screen.findByRole('region', { name: 'Pets' });
    expect(api.textContent).toContain('5 requests per second');
    expect(api.textContent).toContain('1000 requests per day');
    expect(api.textContent).toContain('Approved by the organisation');
    expect(screen.queryByRole('button', { name: /Request access/ })).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Sign in' }).length).toBeGreaterThan(0);
    await waitFor(() => expect(document.title).toBe('Acme APIs · Acme APIs'));
  });

  it('asks for the invitation when the portal is by invitation, and says when approval is awaited', async () => {
    history.replaceState(null, '', '/console/portal/acme/sign-up');
    answer('GET /portal/acme/catalogue', { body: catalogue('invitation') });
    answer('POST /portal/acme/developers', { body: { Status: 'OK', Message: 'Signed up', Meta: { state: 'pending' } } });
    render(<PortalApp />);
    fireEvent.input(await screen.findByLabelText('E-mail address'), { target: { value: 'ada@example.com' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'a long passphrase' } });
    fireEvent.input(screen.getByLabelText('Invitation'), { target: { value: 'inv_123' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Sign up' }).closest('form')!);
    await screen.findByText(/awaits the organisation's approval/);
    const sent = JSON.parse(asked.find((a) => a.method === 'POST')!.body);
    expect(sent).toEqual({ email_address: 'ada@example.com', password: 'a long passphrase', name: '', invitation: 'inv_123' });
  });

  it('shows a refused field beside it', async () => {
    history.replaceState(null, '', '/console/portal/acme/sign-up');
    answer('GET /portal/acme/catalogue', { body: catalogue() });
    answer('POST /portal/acme/developers', {
      status: 400,
      body: { Status: 'Error', Message: 'invalid', Meta: { errors: [{ path: 'body.password', message: 'must be at least 12 characters' }] } },
    });
    render(<PortalApp />);
    fireEvent.submit((await screen.findByRole('button', { name: 'Sign up' })).closest('form')!);
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(password.getAttribute('aria-describedby')!.split(' ').pop()!)!.textContent).toBe('must be at least 12 characters');
  });

  it('signs in: a refusal in words that do not tell which e-mails exist, a 429 with when to retry, then the token for this tab only', async () => {
    history.replaceState(null, '', '/console/portal/acme/sign-in');
    answer('GET /portal/acme/catalogue', { body: catalogue() });
    answer('POST /portal/acme/sessions', error(401, 'e-mail or password not right'));
    render(<PortalApp />);
    const form = (await screen.findByRole('button', { name: 'Sign in' })).closest('form')!;
    fireEvent.input(screen.getByLabelText('E-mail address'), { target: { value: 'ada@example.com' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The e-mail address or the password is not right.'));
    expect(screen.queryByText(/session has ended/)).toBeNull();

    answer('POST /portal/acme/sessions', error(429, 'too many sign-in attempts; try again later', { 'retry-after': '120' }));
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Try again in 120 seconds.'));

    answer('POST /portal/acme/sessions', { body: { Status: 'OK', Message: 'Signed in', Meta: { token: 'dps_abc', expires_at: '', developer: DEVELOPER } } });
    answer('GET /portal/acme/keys', { body: { keys: [] } });
    answer('GET /portal/acme/key-requests', { body: { requests: [] } });
    fireEvent.submit(form);
    await screen.findByRole('heading', { level: 1, name: 'My keys' });
    expect(sessionStorage.getItem('gw-portal.session.acme')).toBe('dps_abc');
    expect(localStorage.length).toBe(0);
    await waitFor(() => expect(asked.find((a) => a.path === '/portal/acme/keys')?.headers.get('authorization')).toBe('Bearer dps_abc'));
    expect(asked.filter((a) => !a.path.startsWith('/portal/acme/')).map((a) => a.path)).toEqual([]);
  });

  it('requests an automatic plan: the key in the same answer, shown once with the warning', async () => {
    sessionStorage.setItem('gw-portal.session.acme', 'dps_abc');
    answer('GET /portal/acme/catalogue', { body: { ...catalogue(), apis: [{ ...PETS, plans: [{ ...PLAN, approval: 'auto' }] }] } });
    answer('GET /portal/acme/developer', { body: DEVELOPER });
    const request = { id: 'r1', developer_email: DEVELOPER.email_address, api_id: 'pets', plan_id: 'pro', state: 'approved' };
    answer('POST /portal/acme/key-requests', { body: { Status: 'OK', Message: 'Requested', Meta: { request, key: 'clear-key-auto', key_hash: 'h' } } });
    render(<PortalApp />);
    fireEvent.click(await screen.findByRole('button', { name: 'Request access to Pets, Pro' }));
    await screen.findByText('clear-key-auto');
    expect(screen.getByText(/This is the only time the key is shown/)).toBeTruthy();
    expect(JSON.parse(asked.find((a) => a.method === 'POST')!.body)).toEqual({ api_id: 'pets', plan_id: 'pro' });
  });

  it('shows an approved request’s "collect key" button, and the key once when collected', async () => {
    sessionStorage.setItem('gw-portal.session.acme', 'dps_abc');
    history.replaceState(null, '', '/console/portal/acme/keys');
    answer('GET /portal/acme/catalogue', { body: catalogue() });
    answer('GET /portal/acme/developer', { body: DEVELOPER });
    answer('GET /portal/acme/keys', { body: { keys: [] } });
    const request = { id: 'r1', org_id: 'acme', developer_id: 'd1', developer_email: DEVELOPER.email_address, api_id: 'pets', plan_id: 'pro', created_at: '' };
    const refused = { ...request, id: 'r2', state: 'refused', reason: 'not a customer' };
    answer('GET /portal/acme/key-requests', { body: { requests: [{ ...request, state: 'approved' }, refused] } });
    answer('POST /portal/acme/key-requests/r1/key', { body: { Status: 'OK', Message: 'Collected', Meta: { request, key: 'clear-key-123', key_hash: 'h' } } });
    render(<PortalApp />);
    expect((await screen.findByRole('row', { name: /Refused/ })).textContent).toContain('not a customer');
    fireEvent.click(await screen.findByRole('button', { name: 'Collect the key of Pets, Pro' }));
    await screen.findByText('clear-key-123');
    expect(screen.getByText(/This is the only time the key is shown/)).toBeTruthy();
  });
});

describe("the console's Portal section", () => {
  const withRights = (portal: 'read' | 'write', page: preact.JSX.Element) => {
    const permissions = { portal, hooks: 'read' as const };
    const user = { id: 'u1', org_id: 'acme', email_address: 'me@acme.example', first_name: '', last_name: '', user_permissions: permissions, active: true };
    return (
      <LocationProvider scope="/console/">
        <SessionContext.Provider value={{ user, can: (g, l) => allows(permissions, g, l), signOut: () => undefined }}>{page}</SessionContext.Provider>
      </LocationProvider>
    );
  };
  beforeEach(() => {
    history.replaceState(null, '', '/console/developer-portal');
    answer('GET /api/portal/settings', { body: { enabled: true, sign_up: 'approval', title: 'Acme APIs', org_id: 'acme' } });
    const entry = { ...PETS, org_id: 'acme', plans: [{ ...PLAN, policy_id: 'gold' }], published_at: '', updated_at: '' };
    answer('GET /api/portal/catalogue', { body: { apis: [entry] } });
    answer('GET /api/hooks', { body: { hooks: [], pages: 0 } });
    const request = { id: 'r1', org_id: 'acme', developer_id: 'd1', developer_email: 'ada@example.com', api_id: 'pets', plan_id: 'pro', state: 'pending' };
    answer('GET /api/portal/key-requests', { body: { requests: [request], pages: 1 } });
  });

  it('with portal read: settings and catalogue shown, no control that writes', async () => {
    render(withRights('read', <PortalSettings />));
    await screen.findByRole('row', { name: /Pets/ });
    expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Acme APIs');
    expect(screen.getByRole('group', { name: 'Settings' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Publish an API' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Unpublish/ })).toBeNull();
    cleanup();
    render(withRights('read', <KeyRequests />));
    await screen.findByRole('row', { name: /ada@example.com/ });
    expect(screen.queryByRole('button', { name: /Approve|Refuse/ })).toBeNull();
  });

  it("with portal write: saving the settings keeps the portal's domain, and a domain not granted shows its error by the field", async () => {
    answer('GET /api/portal/settings', { body: { enabled: true, sign_up: 'approval', title: 'Acme APIs', domain: 'dev.acme.example', org_id: 'acme' } });
    answer('PUT /api/portal/settings', (a) => ({ body: { Status: 'OK', Message: 'Portal settings stored', Meta: JSON.parse(a.body) } }));
    render(withRights('write', <PortalSettings />));
    await waitFor(() => expect(screen.getByLabelText(/^Domain/)).toHaveProperty('value', 'dev.acme.example'));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    expect(JSON.parse(asked.find((a) => a.method === 'PUT')!.body)).toMatchObject({ enabled: true, domain: 'dev.acme.example' });
    const refusal = { Status: 'Error', Message: 'custom domain other.example is not granted to this organisation', Meta: { errors: [{ path: 'domain', message: 'not a domain of this organisation' }] } };
    answer('PUT /api/portal/settings', { status: 422, body: refusal });
    fireEvent.input(screen.getByLabelText(/^Domain/), { target: { value: 'other.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('not a domain of this organisation');
  });

  it('with portal write: approves a developer awaiting approval, and issues an invitation shown once', async () => {
    const developer = { id: 'd1', org_id: 'acme', email_address: 'ada@example.com', name: 'Ada', state: 'pending', created_at: '', updated_at: '' };
    answer('GET /api/portal/developers', (a) => ({ body: { developers: a.query.get('state') === 'active' ? [] : [developer], pages: 1 } }));
    answer('PUT /api/portal/developers/d1', { body: { Status: 'OK', Message: 'Updated', ID: 'd1', Meta: { ...developer, state: 'active' } } });
    const invitation = { invitation: 'inv_secret', email_address: 'bo@example.com', expires_at: '' };
    answer('POST /api/portal/invitations', { body: { Status: 'OK', Message: 'Invited', Meta: invitation } });
    render(withRights('write', <Developers />));
    fireEvent.click(await screen.findByRole('button', { name: 'Approve ada@example.com' }));
    await screen.findByText('Approved ada@example.com.');
    expect(asked.find((a) => a.method === 'PUT')?.body).toBe(JSON.stringify({ state: 'active' }));
    fireEvent.input(screen.getByLabelText("Developer's e-mail address"), { target: { value: 'bo@example.com' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Issue an invitation' }).closest('form')!);
    await screen.findByText('inv_secret');
    expect(screen.getByText(/This is the only time the invitation is shown/)).toBeTruthy();
  });

  it('with portal write: refusing a request asks for the reason and sends it', async () => {
    answer('POST /api/portal/key-requests/r1/refuse', { body: { Status: 'OK', Message: 'Refused', ID: 'r1', Meta: {} } });
    render(withRights('write', <KeyRequests />));
    fireEvent.click(await screen.findByRole('button', { name: /^Refuse ada@example.com/ }));
    fireEvent.input(screen.getByLabelText('Reason (the developer reads it)'), { target: { value: 'not a customer' } });
    fireEvent.submit(screen.getByLabelText('Reason (the developer reads it)').closest('form')!);
    await waitFor(() => expect(asked.find((a) => a.path.endsWith('/refuse'))?.body).toBe(JSON.stringify({ reason: 'not a customer' })));
    expect(asked.find((a) => a.path === '/api/portal/key-requests')?.query.get('state')).toBe('pending');
  });
});
