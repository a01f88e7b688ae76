/**
 * The console in a real browser (Debian's chromium driven by playwright-core) against the local
 * stage the test starts (npm start's server, serving /console/ from the built console/dist): sign
 * in, import an API from a file, create a key with a quota of 2 and watch its quota bar after two
 * checks, create a webhook and see a test delivery in its log, redeliver it, see a usage chart,
 * sign out; a read-only user sees no write controls and gets no write through. On every page axe
 * finds no serious or critical violation, and nothing breaks the Content-Security-Policy.
 * Every answer comes from the service; nothing is stubbed.
 *
 * CONSOLE_SCREENSHOTS=1 also writes the main pages to docs/console/*.png (docs/using/console.md shows them).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { verifyWebhookSignature } from '../../shared/domain/webhook-signature';
import { loadHookForDelivery } from '../../shared/store/hooks';
import { axeViolations, launchChromium, seriousOf, type AxeViolation, type Browser } from '../support/chromium';
import { startReceiver, type Receiver } from '../support/receiver';
import { startStage, type Stage } from '../support/stage';

const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? join(process.cwd(), 'docs', 'console') : undefined;
const PETS_YAML = `openapi: 3.0.3
info:
  title: Pets console
  version: 1.0.0
servers:
  - url: https://pets.example.com/v1
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - name: limit
          in: query
          schema:
            type: integer
      responses:
        '200':
          description: the pets
`;

let s: Stage;
let browser: Browser;
let receiver: Receiver;
let owner: { orgId: string; key: string; userId: string };
let reader: { key: string; userId: string };
const axeLog: Array<{ page: string; violations: AxeViolation[] }> = [];
const cspViolations: string[] = [];
const pageErrors: string[] = [];

/** Webhook tests and redeliveries an organisation may send per minute in this run. */
const HOOK_TEST_LIMIT = 3;

/** What the run learns step by step. */
const run: { apiId?: string; clearKey?: string; keyHash?: string; hookId?: string } = {};

async function createUser(email: string, permissions?: Record<string, string>) {
  const r = await s.admin('POST', '/admin/users', { org_id: owner.orgId, email_address: email, ...(permissions ? { user_permissions: permissions } : {}) });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return { key: r.body.Meta.access_key as string, userId: r.body.Meta.id as string };
}

/** A tab, watched for Content-Security-Policy violations and script errors. */
async function newTab(): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return page;
}

/** axe over the page now: recorded for the run, and no serious or critical violation allowed. */
async function checkAccessibility(page: Page, name: string) {
  const violations = await axeViolations(page);
  axeLog.push({ page: name, violations });
  expect(seriousOf(violations), `${name}: ${JSON.stringify(seriousOf(violations), null, 1)}`).toEqual([]);
}

async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function signIn(page: Page, key: string) {
  await page.goto(`${s.url}/console/`);
  await page.getByLabel('Access key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
}

/** The access key the console keeps for the tab (evaluated in the page). */
const STORED_KEY = "sessionStorage.getItem('gw-console.access-key')";

const WRITE_CONTROLS = new RegExp(
  '^(Import an API|Create a key|Create a policy|Create a webhook|Delete API|Delete webhook|Send a test|' +
    'Rotate signing secret|Save|Save routing|Reset quota.*|Revoke.*|Redeliver.*|Edit this webhook)$',
);
/** The names of buttons and links on the page that would change something. */
async function writeControls(page: Page): Promise<string[]> {
  const names = await page.locator('main').locator('button, a, summary').allInnerTexts();
  return names.map((n) => n.trim()).filter((n) => WRITE_CONTROLS.test(n));
}

beforeAll(async () => {
  ensureConsoleBuilt();
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  // Low enough that the 429 test reaches it in a few calls; the test and the redelivery stay under it.
  process.env.ORG_HOOK_TEST_LIMIT = String(HOOK_TEST_LIMIT);
  s = await startStage({ changeFeed: true });
  receiver = await startReceiver();
  owner = await s.tenant();
  const read = Object.fromEntries(['apis', 'keys', 'policies', 'hooks', 'assets', 'oauth', 'analytics', 'users', 'audit'].map((g) => [g, 'read']));
  reader = await createUser(`reader@${owner.orgId}.example`, read);
  browser = await launchChromium();
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await s?.close();
  delete process.env.ALLOW_PRIVATE_TARGETS;
  delete process.env.ORG_HOOK_TEST_LIMIT;
  const summary = axeLog.map((x) => `${x.page}: ${x.violations.length ? x.violations.map((v) => `${v.id} (${v.impact})`).join(', ') : 'none'}`);
  console.log(`axe-core, violations per page:\n  ${summary.join('\n  ')}`);
});

describe('the console in chromium', () => {
  let page: Page;

  it('is served at /console/ with the Content-Security-Policy; every page path answers the app', async () => {
    const index = await fetch(`${s.url}/console/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await index.text();
    expect(html).toContain('<div id="app">');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect((await fetch(`${s.url}/console/webhooks/abc`)).status).toBe(200);
    expect(await (await fetch(`${s.url}/console/webhooks/abc`)).text()).toBe(html);
    expect((await fetch(`${s.url}/console/../openapi.json`)).status).not.toBe(500);
    expect((await fetch(`${s.url}/console/.vite/manifest.json`)).status).toBe(404);
    const redirect = await fetch(`${s.url}/console`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/console/']);
  });

  it('refuses a wrong access key in words, and signs in with a right one (kept in sessionStorage)', async () => {
    page = await newTab();
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('Access key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Your access key was not accepted');
    await checkAccessibility(page, 'sign-in (refused)');
    await screenshot(page, 'sign-in');

    await page.getByLabel('Access key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'APIs' }).waitFor();
    expect(await page.evaluate(STORED_KEY)).toBe(owner.key);
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts()).toEqual([
      'APIs',
      'Keys',
      'Policies',
      'Webhooks',
      'Usage',
      'Portal',
    ]);
    await checkAccessibility(page, 'APIs (empty)');
  });

  it('imports an API from a file with the import options, and lists it', async () => {
    await page.getByRole('link', { name: 'Import an API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import an API' }).waitFor();
    await checkAccessibility(page, 'import');
    await page.getByLabel('Document file').setInputFiles({ name: 'pets.yaml', mimeType: 'application/yaml', buffer: Buffer.from(PETS_YAML) });
    await page.getByLabel('Listen path').fill('/pets-console/');
    await page.getByLabel('Upstream URL').fill('https://upstream.example/pets');
    await page.getByLabel('Validate requests').check();
    await screenshot(page, 'import');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: '/pets-console/' });
    await row.waitFor();
    expect(await row.innerText()).toContain('https://upstream.example/pets');

    const listed = await s.dash(owner.key, 'GET', '/api/apis');
    expect(listed.body.apis).toHaveLength(1);
    const def = listed.body.apis[0].api_definition;
    expect(def.proxy).toMatchObject({ listen_path: '/pets-console/', target_url: 'https://upstream.example/pets' });
    run.apiId = def.api_id;
    expect(listed.body.apis[0].oas['x-gw-api-gateway'].middleware.operations.listPets.validateRequest).toMatchObject({ enabled: true });
    await checkAccessibility(page, 'APIs (one imported)');
    await screenshot(page, 'apis');
  });

  it("shows a validation error next to its field (the envelope's Meta.errors path)", async () => {
    await page.goto(`${s.url}/console/webhooks/new`);
    await page.getByLabel('Target URL').fill('ftp://files.example/hook');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const field = page.getByLabel('Target URL');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!.split(' ');
    const error = page.locator(`[id="${describedBy.find((d) => d.endsWith('-error'))}"]`);
    expect(await error.innerText()).toMatch(/http/i);
    expect(await page.getByRole('alert').innerText()).toContain('Some values were not accepted');
    await checkAccessibility(page, 'webhook create (invalid)');
    expect((await s.dash(owner.key, 'GET', '/api/hooks')).body.hooks).toEqual([]);
  });

  it('creates a webhook (signing secret shown once), sees its test delivery in the log, and redelivers it', async () => {
    await page.goto(`${s.url}/console/webhooks`);
    await page.getByRole('link', { name: 'Create a webhook' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Console receiver');
    await page.getByLabel('Target URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Receiver-Token');
    await page.getByLabel('Header 1 value').fill('s3cret-token');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.locator('[data-secret]').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByText('This is the only time the signing secret is shown').count()).toBe(1);
    await checkAccessibility(page, 'webhook created (secret)');
    await page.getByRole('link', { name: 'Open the webhook' }).click();
    run.hookId = page.url().split('/').pop();

    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByRole('status').filter({ hasText: 'Test sent' }).waitFor();
    const row = page.locator('tr[data-delivery]').first();
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/Ping\s.*delivered\s+1\s+200/s);
    const [call] = await receiver.waitFor(1);
    expect(JSON.parse(call!.body)).toMatchObject({ event: 'Ping' });
    expect(call!.headers['x-receiver-token']).toBe('s3cret-token');
    expect(verifyWebhookSignature([secret], call!.headers['x-gw-signature'], Buffer.from(call!.body), { toleranceSeconds: 300 }).ok).toBe(true);
    await checkAccessibility(page, 'webhook with a delivery');
    await screenshot(page, 'webhook');

    await page.getByRole('button', { name: /^Redeliver Ping/ }).click();
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/Ping\s.*delivered\s+2\s+200/s);
    expect(await receiver.waitFor(2)).toHaveLength(2);

    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.getByText('No failed delivery on this page.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('delivered');
    expect(await page.locator('tr[data-delivery]').count()).toBe(1);
  });

  it('edits a webhook keeping its write-only header value, and offers to reload on a 412', async () => {
    await page.getByText('Edit this webhook').click();
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('********');
    await page.getByLabel('Name', { exact: true }).fill('Console receiver (renamed)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await s.dash(owner.key, 'GET', `/api/hooks/${run.hookId}`);
    expect(stored.body.name).toBe('Console receiver (renamed)');

    // Someone else changes it meanwhile: the save is refused (If-Match) and the page offers the reload.
    const current = await s.dash(owner.key, 'GET', `/api/hooks/${run.hookId}`);
    const { id: _id, org_id: _org, created_at: _c, updated_at: _u, version: _v, ...body } = current.body;
    expect((await s.dash(owner.key, 'PUT', `/api/hooks/${run.hookId}`, { ...body, name: 'Changed elsewhere' })).status).toBe(200);
    await page.getByLabel('Name', { exact: true }).fill('My stale edit');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('Someone changed this since you opened it');
    await checkAccessibility(page, 'webhook edit (412)');
    await alert.getByRole('button', { name: 'Reload the current version' }).click();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Changed elsewhere');
    expect((await s.dash(owner.key, 'GET', `/api/hooks/${run.hookId}`)).body.name).toBe('Changed elsewhere');
    // The masked value sent back by the first save kept the stored one.
    expect((await loadHookForDelivery(owner.orgId, run.hookId!))?.hook.header_map).toEqual({ 'X-Receiver-Token': 's3cret-token' });
  });

  it('rotates the signing secret after asking, and shows the new one once', async () => {
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    const dialog = page.getByRole('dialog');
    await checkAccessibility(page, 'rotate dialog');
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    const secret = (await page.locator('[data-secret]').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it("says when to try again after a 429 (Retry-After), from the organisation's webhook-test limit", async () => {
    await page.goto(`${s.url}/console/webhooks/${run.hookId}`);
    const refused = page.getByRole('alert').filter({ hasText: 'Too many requests' });
    const sent = page.getByRole('status').filter({ hasText: 'Test sent' });
    // The limit's window is the minute: spend it just before the click, again if a minute began in between.
    for (let attempt = 1; ; attempt++) {
      for (let i = 0; i <= HOOK_TEST_LIMIT && (await s.dash(owner.key, 'POST', `/api/hooks/${run.hookId}/test`)).status !== 429; i++);
      await page.getByRole('button', { name: 'Send a test' }).click();
      await refused.or(sent).first().waitFor();
      if ((await refused.count()) > 0) break;
      expect(attempt, 'a new window began between spending the limit and the click, three times').toBeLessThan(3);
    }
    expect(await refused.innerText()).toMatch(/Too many requests\. Try again in \d+ seconds?\./);
  });

  it('shows an API: listen path, upstream, state, versions, event handlers and its OpenAPI document', async () => {
    await page.goto(`${s.url}/console/apis`);
    await page.getByRole('link', { name: 'Pets console' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pets console' }).waitFor();
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).toContain('/pets-console/');
    expect(facts).toContain('https://upstream.example/pets');
    expect(facts).toContain('Active');
    expect(await page.getByRole('heading', { name: 'Versions' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Event handlers' }).count()).toBe(1);
    expect(await page.getByLabel('OpenAPI document').innerText()).toContain('"listPets"');
    await checkAccessibility(page, 'API page');
    await screenshot(page, 'api');
  });

  it('creates a key with a quota of 2: the clear key shown once, with a copy button and the warning', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    await page.goto(`${s.url}/console/keys`);
    await page.getByRole('link', { name: 'Create a key' }).click();
    await page.getByLabel('Alias').fill('console key');
    await page.getByRole('checkbox', { name: /Pets console/ }).check();
    await page.getByLabel('Quota', { exact: true }).fill('2');
    await page.getByLabel('Quota window (seconds)').fill('3600');
    await checkAccessibility(page, 'key create');
    await page.getByRole('button', { name: 'Create key' }).click();
    run.clearKey = (await page.locator('[data-secret]').innerText()).trim();
    expect(run.clearKey.length).toBeGreaterThan(20);
    expect(await page.getByText('This is the only time the key is shown').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(run.clearKey);
    await checkAccessibility(page, 'key created (clear key)');
    await screenshot(page, 'key-created');
    const keys = await s.dash(owner.key, 'GET', '/api/keys');
    expect(keys.body.keys).toHaveLength(1);
    run.keyHash = keys.body.keys[0].key_hash;
    expect(JSON.stringify(keys.body)).not.toContain(run.clearKey);
  });

  it('shows the quota bar used / max after two checks, and resets it', async () => {
    for (let i = 0; i < 2; i++) {
      const check = await s.gw('POST', '/gw/sessions/check', { key: run.clearKey, api_id: run.apiId, path: '/pets', method: 'GET' });
      expect(check.body).toMatchObject({ allowed: true });
    }
    await page.goto(`${s.url}/console/keys`);
    const meter = page.getByRole('meter', { name: /Quota of console key/ });
    expect(await meter.getAttribute('value')).toBe('2');
    expect(await meter.getAttribute('max')).toBe('2');
    expect(await page.getByRole('row').filter({ hasText: 'console key' }).innerText()).toContain('2 of 2 used');
    await checkAccessibility(page, 'keys');
    await screenshot(page, 'keys');

    await page.getByRole('button', { name: 'Reset quota of console key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset quota' }).click();
    await page.getByRole('status').filter({ hasText: 'Reset the quota' }).waitFor();
    await expect.poll(() => meter.getAttribute('value')).toBe('0');
  });

  it('creates and edits a policy with access rights picked from the APIs', async () => {
    await page.goto(`${s.url}/console/policies/new`);
    await page.getByLabel('Policy id').fill('console-gold');
    await page.getByLabel('Name', { exact: true }).fill('Gold');
    await page.getByLabel('Rate', { exact: true }).fill('100');
    await page.getByLabel('Per (seconds)').fill('60');
    await page.getByRole('checkbox', { name: /Pets console/ }).check();
    await checkAccessibility(page, 'policy create');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('row').filter({ hasText: 'console-gold' }).waitFor();
    await screenshot(page, 'policies');
    await page.getByRole('link', { name: 'Gold' }).click();
    // The edit form fills itself from its read: a value typed before that lands would be overwritten.
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Gold');
    await page.getByLabel('Quota', { exact: true }).fill('1000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await s.dash(owner.key, 'GET', '/api/portal/policies/console-gold');
    expect(stored.body).toMatchObject({ name: 'Gold', rate: 100, per: 60, quota_max: 1000 });
    expect(Object.keys(stored.body.access_rights)).toEqual([run.apiId]);
  });

  it('shows usage charts of an API from the reported analytics (the chart library loaded on demand)', async () => {
    const now = Date.now();
    const record = (i: number, code: number) => ({
      api_id: run.apiId,
      api_name: 'Pets console',
      path: '/pets',
      method: 'GET',
      response_code: code,
      key_hash: run.keyHash ?? 'no-key',
      org_id: owner.orgId,
      timestamp: new Date(now - i * 60_000).toISOString(),
      request_time: 20,
      latency: { total: 20 + i, upstream: 10 },
    });
    expect((await s.gw('POST', '/gw/analytics', { records: [record(1, 200), record(2, 200), record(3, 500)] })).status).toBe(200);
    const chunks: string[] = [];
    page.on('request', (r) => chunks.push(r.url()));
    await page.goto(`${s.url}/console/apis`);
    expect(chunks.some((u) => /\/assets\/usage-/.test(u))).toBe(false);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('status').filter({ hasText: '3 requests, 1 error' }).waitFor();
    expect(chunks.some((u) => /\/assets\/usage-/.test(u))).toBe(true);
    // Counts as bars, latency as a line (console/src/pages/usage/usage-chart.tsx).
    expect(await page.getByRole('img', { name: /Requests per hour/ }).getAttribute('data-kind')).toBe('bar');
    expect(await page.getByRole('img', { name: /Latency/ }).getAttribute('data-kind')).toBe('line');
    await page.getByLabel('7 days').check();
    await page.getByRole('img', { name: /Requests per day/ }).waitFor();
    await checkAccessibility(page, 'usage');
    await screenshot(page, 'usage');
  });

  it('a read-only user sees no write control on any page, and gets no write through', async () => {
    const tab = await newTab();
    await signIn(tab, reader.key);
    const pages = [
      '/console/apis',
      `/console/apis/${run.apiId}`,
      '/console/apis/import',
      '/console/keys',
      '/console/keys/new',
      '/console/policies',
      '/console/policies/console-gold',
      '/console/policies/new',
      '/console/webhooks',
      `/console/webhooks/${run.hookId}`,
      '/console/webhooks/new',
      '/console/usage',
    ];
    for (const p of pages) {
      await tab.goto(`${s.url}${p}`);
      await tab.getByRole('heading', { level: 1 }).waitFor();
      await tab.waitForLoadState('networkidle');
      expect(await writeControls(tab), p).toEqual([]);
      await checkAccessibility(tab, `read-only ${p}`);
    }
    // The service refuses what the console does not offer, whoever sends it.
    const tried = await tab.evaluate(`fetch('/api/hooks', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + ${STORED_KEY}, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', target_path: 'https://x.example/' }),
    }).then((r) => r.status)`);
    expect(tried).toBe(403);
    expect((await s.dash(owner.key, 'GET', '/api/hooks')).body.hooks).toHaveLength(1);
    const triedKey = await tab.evaluate(`fetch('/api/keys', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + ${STORED_KEY}, 'content-type': 'application/json' },
      body: JSON.stringify({ access_rights: {}, quota_max: 1 }),
    }).then((r) => r.status)`);
    expect(triedKey).toBe(403);
    expect((await s.dash(owner.key, 'GET', '/api/keys')).body.keys).toHaveLength(1);
    await tab.close();
  }, 300_000); // twelve pages, each with axe: minutes on a busy machine

  it('a user whose rights are lowered while signed in gets the 403 in words, and nothing is written', async () => {
    const writer = await createUser(`writer@${owner.orgId}.example`);
    const tab = await newTab();
    await signIn(tab, writer.key);
    await tab.goto(`${s.url}/console/webhooks/new`);
    await tab.getByLabel('Target URL').fill('https://hooks.example/late');
    const lowered = await s.admin('PUT', `/admin/users/${writer.userId}`, {
      email_address: `writer@${owner.orgId}.example`,
      active: true,
      user_permissions: { hooks: 'read', apis: 'read' },
    });
    expect(lowered.status).toBe(200);
    await tab.getByRole('button', { name: 'Create webhook' }).click();
    const alert = tab.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('You do not have permission to do this.');
    expect(await alert.innerText()).toMatch(/hooks/);
    await checkAccessibility(tab, 'webhook create (403)');
    expect((await s.dash(owner.key, 'GET', '/api/hooks')).body.hooks).toHaveLength(1);
    await tab.close();
  });

  it('signs out: the key leaves sessionStorage and every page asks to sign in again', async () => {
    await page.goto(`${s.url}/console/webhooks`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Access key').waitFor();
    expect(await page.evaluate(STORED_KEY)).toBeNull();
    await page.goto(`${s.url}/console/webhooks/${run.hookId}`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
  });

  it('broke no Content-Security-Policy rule and threw no script error on any page', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(axeLog.length).toBeGreaterThan(8);
  });
});
