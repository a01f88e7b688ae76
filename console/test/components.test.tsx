/** The console's components in a simulated DOM: what a user and assistive technology get. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../src/api/errors';
import { ErrorNotice } from '../src/components/error-notice';
import { Field } from '../src/components/field';
import { Pager } from '../src/components/pager';
import { QuotaBar } from '../src/components/quota-bar';
import { SecretOnce } from '../src/components/secret-once';

afterEach(cleanup);

describe('QuotaBar', () => {
  it('shows used of max as a named meter and in words, with the renewal time', () => {
    render(<QuotaBar label="Quota of k" max={2} remaining={0} renews={1_900_000_000} />);
    // happy-dom's role table lacks <meter>'s implicit role (chromium has it: test/console/browser.test.ts asks for the role).
    const meter = screen.getByLabelText('Quota of k: 2 of 2 requests used');
    expect(meter.tagName).toBe('METER');
    expect([meter.getAttribute('value'), meter.getAttribute('max')]).toEqual(['2', '2']);
    expect(screen.getByText('2 of 2 used')).toBeTruthy();
    expect(screen.getByText(/^renews /)).toBeTruthy();
  });
  it('says unlimited for quota_max -1 or 0, and never shows more used than max', () => {
    render(<QuotaBar label="a" max={-1} remaining={0} renews={0} />);
    expect(screen.getByText('Unlimited')).toBeTruthy();
    cleanup();
    render(<QuotaBar label="b" max={3} remaining={-4} renews={0} />);
    expect(screen.getByText('3 of 3 used')).toBeTruthy();
  });
});

describe('ErrorNotice', () => {
  it('offers to reload on a 412 and calls back', () => {
    const reload = vi.fn();
    render(<ErrorNotice error={new ServiceError(412, 'If-Match does not match')} onReload={reload} />);
    expect(screen.getByRole('alert').textContent).toContain('Someone changed this since you opened it');
    fireEvent.click(screen.getByRole('button', { name: 'Reload the current version' }));
    expect(reload).toHaveBeenCalledOnce();
  });
  it('says when to try again on a 429, and offers no reload for other errors', () => {
    render(<ErrorNotice error={new ServiceError(429, 'Too many requests', [], 42)} onReload={() => undefined} />);
    expect(screen.getByRole('alert').textContent).toContain('Try again in 42 seconds.');
    expect(screen.queryByRole('button')).toBeNull();
  });
  it('lists only the problems no field on the page shows', () => {
    const e = new ServiceError(400, 'Invalid', [
      { path: 'body.name', message: 'too long' },
      { path: 'body.paths./pets', message: 'not a path item' },
    ]);
    render(<ErrorNotice error={e} shownFields={['name']} />);
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['body.paths./pets: not a path item']);
  });
});

describe('Field', () => {
  it("ties the service's message for it to the control: aria-invalid and aria-describedby with hint and error", () => {
    const e = new ServiceError(400, 'Invalid', [{ path: 'body.target_path', message: 'must be an absolute http(s) URL' }]);
    render(
      <Field form="t" name="target_path" label="Target URL" hint="Where deliveries go." error={e}>
        {(c) => <input {...c} type="url" />}
      </Field>,
    );
    const input = screen.getByLabelText('Target URL');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)!.textContent);
    expect(described).toEqual(['Where deliveries go.', 'must be an absolute http(s) URL']);
  });
  it('marks nothing when the error names another field', () => {
    render(
      <Field form="t2" name="name" label="Name" error={new ServiceError(400, 'x', [{ path: 'body.method', message: 'bad' }])}>
        {(c) => <input {...c} />}
      </Field>,
    );
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('SecretOnce', () => {
  it('shows the value once with the warning, and copies it', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<SecretOnce title="Your new key" value="clear-key-123" what="the key" />);
    expect(screen.getByRole('region', { name: 'Your new key' })).toBeTruthy();
    expect(screen.getByText(/This is the only time the key is shown/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied to the clipboard.'));
    expect(writeText).toHaveBeenCalledWith('clear-key-123');
  });
  it('says so when the browser refuses to copy', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    render(<SecretOnce title="Secret" value="s" what="it" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/select the value and copy it yourself/));
  });
});

describe('Pager', () => {
  it('pages back and forth and disables the ends', () => {
    const onPage = vi.fn();
    render(<Pager label="Pages" page={1} pages={3} onPage={onPage} />);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(2);
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('Page 1 of 3');
  });
  it('is absent for one page', () => {
    render(<Pager label="Pages" page={1} pages={1} onPage={() => undefined} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
