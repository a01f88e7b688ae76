/**
 * An organisation's budget of webhook attempts in flight (shared/store/delivery-budget.ts) on
 * DynamoDB Local: exact under concurrent claims, given back on release, and leases of attempts
 * that died end on their own. And a rotation keeps the replaced signing secret beside the new one.
 */
import { type SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { runQueuedAttempt } from '../../shared/services/delivery-attempts';
import { budgetKeys, claimAttemptSlot, releaseAttemptSlot } from '../../shared/store/delivery-budget';
import { getItem } from '../../shared/store/db/items';
import { loadHookForDelivery, insertHook, loadHook, loadHookRecord, saveHook, saveSigningSecret } from '../../shared/store/hooks';
import { newDbId } from '../../shared/lib/hashing';
import { useTestTable } from '../support/table';
import { createOrganisation } from '../../shared/services/organisations';

beforeAll(async () => {
  await useTestTable();
});

const NOW = 1_800_000_000_000;

describe('attempts in flight per organisation', () => {
  it('30 concurrent claims on a budget of 10: exactly 10 win; a release gives one back', async () => {
    const org = 'budget-a';
    const wins = await Promise.all(Array.from({ length: 30 }, (_, i) => claimAttemptSlot(org, `d${i}`, NOW, NOW + 30_000, 10)));
    expect(wins.filter(Boolean)).toHaveLength(10);
    expect(Object.keys((await getItem(budgetKeys.inFlight(org), true))!.leases as object)).toHaveLength(10);
    expect(await claimAttemptSlot(org, 'late', NOW, NOW + 30_000, 10)).toBe(false);
    const holder = wins.findIndex(Boolean);
    await releaseAttemptSlot(org, `d${holder}`, NOW + 30_000);
    expect(await claimAttemptSlot(org, 'late', NOW, NOW + 30_000, 10)).toBe(true);
    expect(await claimAttemptSlot(org, 'later', NOW, NOW + 30_000, 10)).toBe(false);
    // Another organisation's budget is its own.
    expect(await claimAttemptSlot('budget-b', 'd0', NOW, NOW + 30_000, 10)).toBe(true);
  });

  it('leases of attempts that never released end: once their time has passed, concurrent claims take exactly their room', async () => {
    const org = 'budget-c';
    for (let i = 0; i < 10; i++) expect(await claimAttemptSlot(org, `dead${i}`, NOW, NOW + 30_000, 10)).toBe(true);
    expect(await claimAttemptSlot(org, 'x', NOW + 29_000, NOW + 59_000, 10)).toBe(false);
    const later = NOW + 31_000;
    const wins = await Promise.all(Array.from({ length: 25 }, (_, i) => claimAttemptSlot(org, `new${i}`, later, later + 30_000, 10)));
    expect(wins.filter(Boolean).length).toBeLessThanOrEqual(10);
    const leases = (await getItem(budgetKeys.inFlight(org), true))!.leases as Record<string, number>;
    expect(Object.values(leases).filter((until) => until > later)).toHaveLength(wins.filter(Boolean).length);
    expect(Object.keys(leases).length).toBeLessThanOrEqual(10);
    // Whatever the races left, the budget fills up to 10 live leases and no further.
    for (let i = 0; i < 20; i++) await claimAttemptSlot(org, `fill${i}`, later, later + 30_000, 10);
    const after = (await getItem(budgetKeys.inFlight(org), true))!.leases as Record<string, number>;
    expect(Object.values(after).filter((until) => until > later)).toHaveLength(10);
  });

  it('a release of a lease already removed as ended changes nothing', async () => {
    await releaseAttemptSlot('budget-none', 'x', NOW);
    await releaseAttemptSlot('budget-a', 'never-claimed', NOW);
    expect(await getItem(budgetKeys.inFlight('budget-none'), true)).toBeUndefined();
  });
});

describe('an attempt without a free slot', () => {
  it('goes back to the queue, later each time (2, 4, ... at most 60 s), and is not attempted', async () => {
    const org = 'budget-full';
    for (let i = 0; i < 10; i++) await claimAttemptSlot(org, `busy${i}`, Date.now(), Date.now() + 30_000, 10);
    process.env.HOOK_QUEUE_URL = 'https://sqs.example/attempts';
    resetConfig();
    const sent: SendMessageBatchCommand['input'][] = [];
    const send = vi.spyOn(SQSClient.prototype, 'send').mockImplementation(async (command: unknown) => {
      sent.push((command as SendMessageBatchCommand).input);
      return { Successful: [], Failed: [] } as never;
    });
    try {
      const m = { org_id: org, hook_id: 'h', id: 'not-even-stored' };
      expect(await runQueuedAttempt(m)).toBe('deferred');
      expect(await runQueuedAttempt({ ...m, deferrals: 4 })).toBe('deferred');
      expect(await runQueuedAttempt({ ...m, deferrals: 9 })).toBe('deferred');
      expect(sent.map((b) => [b.Entries![0]!.DelaySeconds, JSON.parse(b.Entries![0]!.MessageBody!).deferrals, b.Entries![0]!.MessageGroupId])).toEqual([
        [2, 1, org],
        [32, 5, org],
        [60, 10, org],
      ]);
    } finally {
      send.mockRestore();
      delete process.env.HOOK_QUEUE_URL;
      resetConfig();
    }
  });
});

describe('signing-secret rotation in the store', () => {
  it('keeps the replaced sealed secret and the time; a replace keeps both; no read shows them', async () => {
    const id = newDbId();
    const made = new Date().toISOString();
    const hook = {
      name: 'h',
      method: 'POST',
      target_path: 'https://hooks.example/x',
      header_map: {},
      id,
      org_id: 'rot-org',
      created_at: made,
      updated_at: made,
      version: 1,
    };
    // A webhook is stored only for an organisation that exists (and is not being offboarded).
    await createOrganisation({ id: 'rot-org' } as never);
    await insertHook(hook as never, 'sealed-1', 100);
    expect((await loadHookForDelivery('rot-org', id))?.previous).toBeUndefined();
    const before = Date.now();
    await saveSigningSecret('rot-org', id, 'sealed-2');
    const rotated = await loadHookForDelivery('rot-org', id);
    expect(rotated).toMatchObject({ sealedSecret: 'sealed-2', previous: { sealed: 'sealed-1' } });
    expect(rotated!.previous!.rotatedAtMs).toBeGreaterThanOrEqual(before);
    const current = (await loadHookRecord('rot-org', id))!;
    await saveHook({ ...hook, name: 'renamed', method: 'PUT', target_path: 'https://hooks.example/y', version: current.version + 1 } as never, current);
    expect(await loadHookForDelivery('rot-org', id)).toMatchObject({ sealedSecret: 'sealed-2', previous: rotated!.previous, hook: { name: 'renamed' } });
    const read = JSON.stringify(await loadHook('rot-org', id));
    expect(read).not.toMatch(/sealed|rotated/);
    await saveSigningSecret('rot-org', id, 'sealed-3');
    expect((await loadHookForDelivery('rot-org', id))?.previous?.sealed).toBe('sealed-2');
  });
});
