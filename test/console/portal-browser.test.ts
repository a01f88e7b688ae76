/**
 * The developer portal in a real browser (Debian's chromium, playwright-core) against the local
 * stage, with the console beside it: a user turns the portal on and publishes an API with a manual
 * plan in the console; a developer signs up and in on the portal, reads the API's reference and
 * requests the plan; the user approves the request in the console; the developer collects the key
 * (shown once, gone after a reload), which the check then allows; after the gateway reports a
 * request with it, the developer's usage page shows it; rolling and revoking it stop the old key. axe finds no serious or critical violation
 * on any portal page, and nothing breaks the Content-Security-Policy. Nothing is stubbed.
 *
 * CONSOLE_SCREENSHOTS=1 also writes the main portal pages to docs/console/portal-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { axeViolations, launchChromium, seriousOf, type AxeViolation, type Browser } from '../support/chromium';
import { oasDoc, rightsFor } from '../support/fixtures';
import { startStage, type Stage } from '../support/stage';

const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? join(process.cwd(), 'docs', 'console') : undefined;
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'ada@example.com';

let s: Stage;
let browser: Browser;
let owner: { orgId: string; key: string };
let user: Page;
let dev: Page;
const apiId = `pets-portal-${process.pid}`;
const axeLog: Array<{ page: string; violations: AxeViolation[] }> = [];
const problems: string[] = [];
const run: { key?: string; keyHash?: string } = {};

async function newTab(): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  return page;
}

async function checkAccessibility(page: Page, name: string) {
  const violations = await axeViolations(page);
  axeLog.push({ page: name, violations });
  expect(seriousOf(violations), `${name}: ${JSON.stringify(seriousOf(violations), null, 1)}`).toEqual([]);
}

async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `portal-${name}.png`), fullPage: true });
}

const portal = (path = '') => `${s.url}/console/portal/${owner.orgId}/${path}`;

beforeAll(async () => {
  ensureConsoleBuilt();
  s = await startStage({ changeFeed: true });
  owner = await s.tenant();
  const doc = {
    ...oasDoc(apiId, owner.orgId, { title: 'Pets' }),
    servers: [{ url: 'https://pets.example.com/v1' }],
    paths: {
      '/pets': {
        get: {
          summary: 'List the pets',
          parameters: [{ name: 'limit', in: 'query', description: 'At most this many', schema: { type: 'integer' } }],
          responses: { '200': { description: 'the pets' } },
        },
      },
    },
  };
  expect((await s.dash(owner.key, 'POST', '/api/apis/oas', doc)).status).toBe(200);
  const policy = { id: 'pro-policy', name: 'Pro', access_rights: rightsFor(apiId), quota_max: 100, quota_renewal_rate: 3600, rate: 10, per: 1 };
  expect((await s.dash(owner.key, 'POST', '/api/portal/policies', policy)).status).toBe(200);
  browser = await launchChromium();
  user = await newTab();
  dev = await newTab();
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  const summary = axeLog.map((x) => `${x.page}: ${x.violations.length ? x.violations.map((v) => `${v.id} (${v.impact})`).join(', ') : 'none'}`);
  console.log(`axe-core, violations per portal page:\n  ${summary.join('\n  ')}`);
});

describe('the developer portal in chromium', () => {
  it('is served at /console/portal/{orgID}/ with the console’s security headers; every page path answers its page', async () => {
    const index = await fetch(portal());
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-frame-options')).toBe('DENY');
    const html = await index.text();
    expect(html).toContain('<title>Developer portal</title>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(await (await fetch(portal('keys/abc/usage'))).text()).toBe(html);
    expect(await (await fetch(`${s.url}/console/keys`)).text()).not.toBe(html);
  });

  it('a closed portal says so', async () => {
    await dev.goto(portal());
    await dev.getByRole('heading', { level: 1, name: 'No portal here' }).waitFor();
    await checkAccessibility(dev, 'portal closed');
  });

  it('a user turns the portal on and publishes the API with a manual plan in the console', async () => {
    await user.goto(`${s.url}/console/`);
    await user.getByLabel('Access key').fill(owner.key);
    await user.getByRole('button', { name: 'Sign in' }).click();
    await user.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Portal' }).click();
    await user.getByRole('heading', { level: 1, name: 'Developer portal' }).waitFor();
    await user.getByLabel('Portal on').check();
    await user.getByLabel('Sign-up').selectOption('open');
    await user.getByLabel('Title').fill('Acme APIs');
    await user.getByRole('button', { name: 'Save settings' }).click();
    await user.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await checkAccessibility(user, 'console: portal settings');
    expect((await s.dash(owner.key, 'GET', '/api/portal/settings')).body).toMatchObject({ enabled: true, sign_up: 'open', title: 'Acme APIs' });

    await user.getByRole('link', { name: 'Publish an API' }).click();
    await user.getByLabel('API', { exact: true }).selectOption(apiId);
    await user.getByLabel('Plan 1 id').fill('pro');
    await user.getByLabel('Plan 1 name').fill('Pro');
    await user.getByLabel('Plan 1 description').fill('For production');
    await user.getByLabel('Plan 1 policy').selectOption('pro-policy');
    await user.getByLabel('Plan 1 approval').selectOption('manual');
    await checkAccessibility(user, 'console: publish');
    await user.getByRole('button', { name: 'Publish', exact: true }).click();
    await user.getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    expect(await user.getByRole('row').filter({ hasText: apiId }).innerText()).toContain('Pro (pro-policy, manual)');
    await screenshot(user, 'console-settings');
  });

  it('shows the catalogue and the reference (loaded on first use) to anyone', async () => {
    const chunks: string[] = [];
    dev.on('request', (r) => chunks.push(r.url()));
    await dev.goto(portal());
    await dev.getByRole('heading', { level: 1, name: 'Acme APIs' }).waitFor();
    const api = dev.getByRole('region', { name: 'Pets' });
    expect(await api.innerText()).toMatch(
      /Pro[\s\S]*For production[\s\S]*10 requests per second[\s\S]*100 requests per hour[\s\S]*Approved by the organisation/,
    );
    expect(chunks.some((u) => /\/assets\/(reference|usage)-/.test(u))).toBe(false);
    await checkAccessibility(dev, 'catalogue (signed out)');
    await screenshot(dev, 'catalogue');
    await dev.getByRole('link', { name: 'Reference of Pets' }).click();
    await dev.getByRole('heading', { level: 1, name: 'Pets reference' }).waitFor();
    expect(chunks.some((u) => /\/assets\/reference-/.test(u))).toBe(true);
    const op = dev.getByRole('region', { name: /GET \/pets/ });
    expect(await op.innerText()).toContain('List the pets');
    expect(await op.getByRole('table', { name: 'Parameters' }).innerText()).toMatch(/limit\s+query\s+integer\s+no\s+At most this many/);
    await dev.getByText('https://pets.example.com/v1').waitFor();
    await checkAccessibility(dev, 'reference');
    await screenshot(dev, 'reference');
  });

  it('a developer signs up (a short password refused beside its field) and signs in (a wrong password refused in words)', async () => {
    await dev.goto(portal('sign-up'));
    await dev.getByLabel('E-mail address').fill(EMAIL);
    await dev.getByLabel('Password').fill('short');
    // The browser's own check would stop a short password: the service's answer is what is tested.
    await dev.locator('form').evaluate((f) => f.setAttribute('novalidate', ''));
    await dev.getByRole('button', { name: 'Sign up' }).click();
    const password = dev.getByLabel('Password');
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    await checkAccessibility(dev, 'sign-up (invalid)');
    await password.fill(PASSWORD);
    await dev.getByRole('button', { name: 'Sign up' }).click();
    await dev.getByRole('status').filter({ hasText: 'You can sign in now' }).waitFor();
    await checkAccessibility(dev, 'signed up');

    await dev.getByRole('link', { name: 'sign in', exact: true }).click();
    await dev.getByLabel('E-mail address').fill(EMAIL);
    await dev.getByLabel('Password').fill('not the password at all');
    await dev.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => dev.getByRole('alert').innerText()).toContain('The e-mail address or the password is not right.');
    await checkAccessibility(dev, 'sign-in (refused)');
    await screenshot(dev, 'sign-in');
    await dev.getByLabel('Password').fill(PASSWORD);
    await dev.getByRole('button', { name: 'Sign in' }).click();
    await dev.getByRole('heading', { level: 1, name: 'My keys' }).waitFor();
    expect(await dev.evaluate(`sessionStorage.getItem('gw-portal.session.${owner.orgId}')`)).toMatch(/^dps_/);
    expect(await dev.evaluate('localStorage.length + document.cookie.length')).toBe(0);
    await checkAccessibility(dev, 'my keys (none)');
  });

  it('requests the manual plan: pending until the user approves it in the console', async () => {
    await dev.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'APIs' }).click();
    await dev.getByRole('button', { name: 'Request access to Pets, Pro' }).click();
    await dev.getByRole('status').filter({ hasText: 'Requested.' }).waitFor();
    await checkAccessibility(dev, 'catalogue (requested)');
    await dev.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'My keys' }).click();
    expect(await dev.getByRole('row').filter({ hasText: 'Pets, Pro' }).innerText()).toContain('Waiting for approval');

    await user.goto(`${s.url}/console/developer-portal/requests`);
    const row = user.getByRole('row').filter({ hasText: EMAIL });
    await row.waitFor();
    await checkAccessibility(user, 'console: key requests');
    await screenshot(user, 'console-requests');
    await row.getByRole('button', { name: /^Approve / }).click();
    await user.getByRole('status').filter({ hasText: 'the developer can collect the key' }).waitFor();
    // The queue is read again after the approval: the request has left it.
    await user.getByText('No request is waiting.').waitFor();
  });

  it('collects the key: shown once with a copy button and the warning, gone after a reload; the check allows it', async () => {
    await dev.reload();
    await dev.getByRole('button', { name: 'Collect the key of Pets, Pro' }).click();
    run.key = (await dev.locator('[data-secret]').innerText()).trim();
    expect(run.key.length).toBeGreaterThan(20);
    expect(await dev.getByText('This is the only time the key is shown').count()).toBe(1);
    expect(await dev.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    await checkAccessibility(dev, 'my keys (key shown once)');
    await screenshot(dev, 'key-collected');
    await dev.reload();
    await dev.getByRole('heading', { level: 1, name: 'My keys' }).waitFor();
    await dev.getByRole('meter', { name: /Quota of Pets, Pro/ }).waitFor();
    expect(await dev.locator('[data-secret]').count()).toBe(0);
    expect(await dev.content()).not.toContain(run.key);
    expect(await dev.getByRole('button', { name: /Collect the key/ }).count()).toBe(0);

    const keys = await s.call('GET', `/portal/${owner.orgId}/keys`, {
      headers: { authorization: `Bearer ${await dev.evaluate(`sessionStorage.getItem('gw-portal.session.${owner.orgId}')`)}` },
    });
    run.keyHash = keys.body.keys[0].key_hash;
    const check = await s.gw('POST', '/gw/sessions/check', { key: run.key, api_id: apiId, path: '/pets', method: 'GET' });
    expect(check.body).toMatchObject({ allowed: true });
    await dev.reload();
    const meter = dev.getByRole('meter', { name: /Quota of Pets, Pro/ });
    await expect.poll(() => meter.getAttribute('value')).toBe('1');
    expect(await dev.getByRole('row').filter({ hasText: 'Pets, Pro' }).first().innerText()).toContain('99 left');
    await checkAccessibility(dev, 'my keys');
    await screenshot(dev, 'keys');
  });

  it("shows the key's usage from the gateway's analytics, as a chart (loaded on first use) and a table", async () => {
    const record = {
      api_id: apiId,
      api_name: 'Pets',
      path: '/pets',
      method: 'GET',
      response_code: 200,
      key_hash: run.keyHash,
      org_id: owner.orgId,
      timestamp: new Date().toISOString(),
      request_time: 20,
      latency: { total: 20, upstream: 10 },
    };
    expect((await s.gw('POST', '/gw/analytics', { records: [record] })).status).toBe(200);
    await dev.getByRole('link', { name: 'Usage of Pets, Pro' }).click();
    await dev.getByRole('status').filter({ hasText: '1 request, 0 errors' }).waitFor();
    expect(await dev.getByRole('img', { name: /Requests per day/ }).getAttribute('data-kind')).toBe('bar');
    const today = dev.getByRole('table', { name: 'Usage per day (UTC)' }).getByRole('row').last();
    expect(await today.innerText()).toMatch(/^\S.*\s1\s+1\s+0\s+20$/);
    await checkAccessibility(dev, 'usage');
    await screenshot(dev, 'usage');
  });

  it('rolls the key (the new one shown once, the old one refused) and revokes it after asking', async () => {
    const allowed = async (key: string) => (await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/pets', method: 'GET' })).body.allowed;
    await dev.getByRole('link', { name: 'My keys' }).first().click();
    await dev.getByRole('button', { name: 'Roll the key of Pets, Pro' }).click();
    await checkAccessibility(dev, 'roll dialog');
    await dev.getByRole('dialog').getByRole('button', { name: 'Roll' }).click();
    await dev.getByRole('heading', { name: 'Your new key for Pets, Pro' }).waitFor();
    const rolled = (await dev.locator('[data-secret]').innerText()).trim();
    expect(rolled).not.toBe(run.key);
    expect(await allowed(rolled)).toBe(true);
    expect(await allowed(run.key!)).toBe(false);

    await dev.getByRole('button', { name: 'Revoke the key of Pets, Pro' }).click();
    await dev.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await dev.getByRole('status').filter({ hasText: 'Revoked the key of Pets, Pro.' }).waitFor();
    await dev.getByText('You have no key yet.').waitFor();
    // The keys and the requests are read again side by side: wait for the request's row to say so.
    await dev.getByRole('row').filter({ hasText: 'Pets, Pro' }).filter({ hasText: 'Revoked' }).waitFor();
    expect(await allowed(rolled)).toBe(false);
  });

  it('signs out: the session leaves sessionStorage and the service', async () => {
    const token = await dev.evaluate(`sessionStorage.getItem('gw-portal.session.${owner.orgId}')`);
    await dev.getByRole('button', { name: 'Sign out' }).click();
    await dev.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
    expect(await dev.evaluate(`sessionStorage.getItem('gw-portal.session.${owner.orgId}')`)).toBeNull();
    await expect
      .poll(async () => (await s.call('GET', `/portal/${owner.orgId}/developer`, { headers: { authorization: `Bearer ${token}` } })).status)
      .toBe(401);
  });

  it('broke no Content-Security-Policy rule and threw no script error', () => {
    expect(problems).toEqual([]);
    expect(axeLog.length).toBeGreaterThan(10);
  });
});
