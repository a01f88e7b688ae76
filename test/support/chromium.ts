/**
 * Debian's chromium for the browser tests, driven by playwright-core (which downloads no browser):
 * headless, no sandbox (containers), no network of its own (no QUIC, updates, sync or background
 * requests), a fresh profile each launch. A machine without it gets it from apt when the tests run
 * as root, else the error names the command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const INSTALL = 'apt-get install -y chromium';

/** Chromium at `path`, installed from apt when missing and `asRoot`; otherwise an error naming the command (a browser test never skips). */
export function ensureChromium(path = CHROMIUM, asRoot = process.getuid?.() === 0): void {
  if (existsSync(path)) return;
  if (asRoot && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'ignore', env });
  }
  if (!existsSync(path)) throw new Error(`The browser tests need Debian's chromium at ${path}: run \`${INSTALL}\` as root.`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One browser (one persistent context on a fresh --user-data-dir); each page is a tab with its own
 * sessionStorage. `hosts` are names the browser resolves to 127.0.0.1 (a domain a gateway serves).
 */
export async function launchChromium(hosts: string[] = []): Promise<Browser> {
  ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(hosts.length ? [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`] : [])],
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core over the page as it is now: every violation, with its impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(axe.source);
  return page.evaluate<AxeViolation[]>(`axe.run(document).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')),
  })))`);
}

/** The serious and critical ones, which the console must not have. */
export const seriousOf = (v: AxeViolation[]) => v.filter((x) => x.impact === 'serious' || x.impact === 'critical');
