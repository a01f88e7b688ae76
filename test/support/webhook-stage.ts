/**
 * The set-up the webhook suites share (webhook-events, webhook-tenancy, webhook-routing,
 * secrets-shown-once): the in-process stage, with its change feed unless asked otherwise, one
 * organisation of it, and what the tests make to receive deliveries, every receiver closed after
 * the file. On this stage receivers on 127.0.0.1 may be targets (ALLOW_PRIVATE_TARGETS=1, as the
 * local stage allows), retries follow the suite's schedule (HOOK_RETRY_SECONDS), and dashboard
 * writes are not limited per organisation (ORG_WRITE_LIMIT at its most), so a suite that makes a
 * hundred hooks never waits out a window.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resetConfig } from '../../shared/config';
import { ORG_LIMIT_MAX } from '../../shared/limits';
import { uid } from './fixtures';
import { startReceiver, startTarpit, type Receiver, type Tarpit } from './receiver';
import { onEmulator, startStage, type Stage } from './stage';

/**
 * The emulated stack feeds no stream to its delivery functions, and its functions see only the
 * template's settings: a suite that needs the change feed or the settings above skips there
 * (docs/developing/tests.md).
 */
export const feedSuite = onEmulator ? describe.skip : describe;

export interface WebhookStage {
  /** The stage (after the file's beforeAll). */
  readonly s: Stage;
  /** Its organisation and the owner's dashboard key. */
  readonly t: { orgId: string; key: string; userId: string };
  /** A receiver that answers each call with `answer(n)` (default 200), closed after the file. */
  receiver(answer?: (n: number) => number): Promise<Receiver>;
  /** A receiver that never answers, closed after the file. */
  tarpit(): Promise<Tarpit>;
  /** One hook of the organisation of `key` to `target`, with a header; its id and signing secret. */
  hook(key: string, target: string): Promise<{ id: string; secret: string }>;
  /** `n` hooks of the organisation of `key` to `target`, created 20 at a time; their ids. */
  hooks(key: string, n: number, target: string): Promise<string[]>;
}

export function useWebhookStage(opts: { changeFeed?: boolean; retrySeconds?: string } = {}): WebhookStage {
  const settings: Record<string, string> = {
    ALLOW_PRIVATE_TARGETS: '1',
    ORG_WRITE_LIMIT: String(ORG_LIMIT_MAX),
    ...(opts.retrySeconds ? { HOOK_RETRY_SECONDS: opts.retrySeconds } : {}),
  };
  const before: Record<string, string | undefined> = {};
  const closers: Array<{ close(): Promise<void> }> = [];
  let stage: Stage | undefined;
  let tenant: WebhookStage['t'] | undefined;

  beforeAll(async () => {
    for (const [name, value] of Object.entries(settings)) {
      before[name] = process.env[name];
      process.env[name] = value;
    }
    resetConfig();
    stage = await startStage({ changeFeed: (opts.changeFeed ?? true) && !onEmulator });
    tenant = await stage.tenant();
  });
  afterAll(async () => {
    await Promise.all(closers.splice(0).map((c) => c.close()));
    await stage?.close();
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });

  const closed = <T extends { close(): Promise<void> }>(made: T): T => {
    closers.push(made);
    return made;
  };
  const ws: WebhookStage = {
    get s() {
      if (!stage) throw new Error('the webhook stage starts in beforeAll');
      return stage;
    },
    get t() {
      if (!tenant) throw new Error('the webhook stage starts in beforeAll');
      return tenant;
    },
    receiver: async (answer) => closed(await startReceiver(answer)),
    tarpit: async () => closed(await startTarpit()),
    async hook(key, target) {
      const r = await ws.s.dash(key, 'POST', '/api/hooks', { name: uid('hook'), method: 'POST', target_path: target, header_map: { 'x-team': 'ops' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { id: r.body.Meta as string, secret: r.body.signing_secret as string };
    },
    async hooks(key, n, target) {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 20) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(20, n - i) }, (_, j) =>
            ws.s.dash(key, 'POST', '/api/hooks', { name: `h${i + j}`, method: 'POST', target_path: target }),
          ),
        );
        for (const r of batch) {
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          ids.push(r.body.Meta as string);
        }
      }
      return ids;
    },
  };
  return ws;
}
