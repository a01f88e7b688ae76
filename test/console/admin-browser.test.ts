/**
 * The console's admin side in a real browser (chromium, playwright-core) against the local stage:
 * an installation admin signs in with the admin secret (a wrong one is refused in words), finds an
 * organisation by search, suspends it (its dashboard user is then refused by the service) and
 * resumes it, offboards another and follows the run to its end; the secret stays in the tab's sessionStorage and leaves it on signing out; axe finds
 * no serious violation and nothing breaks the Content-Security-Policy. Nothing is stubbed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { axeViolations, launchChromium, seriousOf, type Browser } from '../support/chromium';
import { startStage, type Stage } from '../support/stage';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { ADMIN_SECRET } from '../support/table';

let s: Stage;
let browser: Browser;
let page: Page;
let tenant: { orgId: string; key: string };
const problems: string[] = [];
const STORED = "sessionStorage.getItem('gw-console.admin-secret')";

beforeAll(async () => {
  ensureConsoleBuilt();
  s = await startStage({ changeFeed: true });
  tenant = await s.tenant();
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const row = () => page.getByRole('row').filter({ hasText: tenant.orgId });

describe("the console's admin side in chromium", () => {
  it('refuses a wrong admin secret in words and signs in with the right one, kept for the tab', async () => {
    await page.goto(`${s.url}/console/admin/`);
    await page.getByLabel('Admin secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/.+/);
    expect(await page.evaluate(STORED)).toBeNull();
    await page.getByLabel('Admin secret').fill(ADMIN_SECRET);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
    expect(await page.evaluate(STORED)).toBe(ADMIN_SECRET);
    expect(seriousOf(await axeViolations(page))).toEqual([]);
  });

  it('finds an organisation by its id, suspends it (its user is refused) and resumes it', async () => {
    await page.getByLabel('Search organisations').fill(tenant.orgId);
    await page.getByRole('button', { name: 'Search' }).click();
    await row().waitFor();
    expect(await row().innerText()).toContain('Active');

    await row()
      .getByRole('button', { name: /^Suspend / })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').filter({ hasText: 'is suspended' }).waitFor();
    await expect.poll(() => row().innerText()).toContain('Suspended');
    expect((await s.admin('GET', `/admin/organisations/${tenant.orgId}`)).body.active).toBe(false);
    expect((await s.dash(tenant.key, 'GET', '/api/apis')).status).toBe(403);
    expect(seriousOf(await axeViolations(page))).toEqual([]);

    await row()
      .getByRole('button', { name: /^Resume / })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => row().innerText()).toContain('Active');
    expect((await s.admin('GET', `/admin/organisations/${tenant.orgId}`)).body.active).toBe(true);
    await expect.poll(async () => (await s.dash(tenant.key, 'GET', '/api/apis')).status, { timeout: 10_000 }).toBe(200);
  });

  it("shows the month's usage per organisation, and one organisation's days as bars", async () => {
    const apiId = await makeApi(s, tenant.orgId);
    const { key } = await makeKey(s, { org_id: tenant.orgId, access_rights: rightsFor(apiId), quota_max: 3, quota_renewal_rate: 3600 });
    for (let i = 0; i < 5; i++) await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId });
    await s.caughtUp();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    const usageRow = page.getByRole('row').filter({ hasText: tenant.orgId });
    await usageRow.waitFor();
    expect(await usageRow.innerText()).toMatch(/\b3\b[\s\S]*\b2\b[\s\S]*QuotaExceeded 2/);
    await usageRow.getByRole('button', { name: `Days of ${tenant.orgId}` }).click();
    const chart = page.getByRole('img', { name: /^Requests per day: 3 allowed and 2 refused/ });
    await chart.waitFor();
    expect(await chart.getAttribute('data-kind')).toBe('bar');
    await page.getByRole('row').filter({ hasText: apiId }).waitFor();
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await page.getByRole('link', { name: 'Organisations' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  });

  it('offboards an organisation and follows its run to the end; the organisation is then gone', async () => {
    const leaving = await s.tenant();
    await makeApi(s, leaving.orgId);
    await page.getByLabel('Search organisations').fill(leaving.orgId);
    await page.getByRole('button', { name: 'Search' }).click();
    const leavingRow = page.getByRole('row').filter({ hasText: leaving.orgId });
    await leavingRow.waitFor();
    await leavingRow.getByRole('button', { name: /^Offboard / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Offboard' }).click();
    await page.getByRole('heading', { name: `Offboarding ${leaving.orgId}` }).waitFor();
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    // The page reads the run again until it is done, with what it deleted by kind.
    await page.getByRole('status').filter({ hasText: /^Done/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('row', { name: 'api 1', exact: true }).waitFor();
    expect((await s.admin('GET', `/admin/organisations/${leaving.orgId}`)).status).toBe(404);
    expect((await s.dash(leaving.key, 'GET', '/api/apis')).status).toBe(401);
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await page.getByRole('link', { name: 'Organisations' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  });

  it('signs out: the secret leaves sessionStorage, and the page asks for it again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin secret').waitFor();
    expect(await page.evaluate(STORED)).toBeNull();
    expect(problems).toEqual([]);
  });
});
