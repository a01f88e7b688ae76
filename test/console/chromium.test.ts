/** The browser tests' chromium (test/support/chromium.ts): a machine without it fails them, naming the install command. */
import { expect, it } from 'vitest';
import { CHROMIUM, ensureChromium } from '../support/chromium';

it('fails naming apt-get install -y chromium when the browser is missing and the tests may not install it', () => {
  expect(() => ensureChromium('/nonexistent/chromium', false)).toThrow(/run `apt-get install -y chromium` as root/);
});

it('passes when the browser is there', () => {
  expect(() => ensureChromium(CHROMIUM, false)).not.toThrow();
});
