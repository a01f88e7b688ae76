/**
 * The check through the stage: the organisation's counter is written only after the key's
 * admitted, and only when the organisation has a quota; a refusal by the organisation gives the
 * key its unit back. The counter writes themselves, called directly, are
 * test/integration/check-one-write.test.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { orgSessionKeys } from '../../shared/store/org-sessions';
import { keyHash } from '../../shared/domain/key-ids';
import { makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { commandRecorder } from '../support/sent-commands';
import { onEmulator } from '../support/stage';
import { useStage } from '../support/file-stage';

const s = useStage();
const recorded = commandRecorder();

const read = async (key: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe("the organisation's quota after the key's", () => {
  // These read the commands this process's client sends; on the emulated stage the check's
  // functions send them from their own processes (docs/developing/tests.md).
  const ownCommands = it.skipIf(onEmulator);
  const check = (key: string, api: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api });

  ownCommands('without an organisation quota an allowed check writes only the key counter', async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 100, per: 60 });
    expect((await check(key, api)).status).toBe(200); // warms the session cache and opens the windows
    const { result, commands } = await recorded(() => check(key, api));
    expect(result.status).toBe(200);
    const head = counterOf(keyHash(key), '').head;
    expect(commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
  });

  ownCommands("a write to one key leaves the other keys' cached sessions: their next check is still one UpdateItem", async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    const limits = { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 50, quota_renewal_rate: 3600 };
    const [{ key: other }, { key: written }] = [await makeKey(s, limits), await makeKey(s, limits)];
    for (const k of [other, written]) expect((await check(k, api)).status).toBe(200);
    expect((await s.dash(t.key, 'PUT', `/api/keys/${keyHash(written)}`, { ...limits, quota_max: 40 })).status).toBe(200);
    const { result, commands } = await recorded(() => check(other, api));
    expect(result.status).toBe(200);
    const head = counterOf(keyHash(other), '').head;
    expect(commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
    // The written key itself is read again: its new quota holds at once in this process.
    const again = await recorded(() => check(written, api));
    expect(again.result.body).toMatchObject({ allowed: true });
    expect(again.commands.map((c) => c.command)).toContain('GetItemCommand');
  });

  ownCommands('a policy write forgets only the sessions of the keys that apply it: they enforce it at once, the others are not read again', async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    const policy = uid('pol');
    const body = { id: policy, name: policy, org_id: t.orgId, access_rights: rightsFor(api), quota_max: 50, quota_renewal_rate: 3600 };
    expect((await s.gw('POST', '/gw/policies', body)).status).toBe(200);
    const { key: applies } = await makeKey(s, { org_id: t.orgId, apply_policies: [policy] });
    const { key: other } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 50, quota_renewal_rate: 3600 });
    for (const k of [applies, other]) expect((await check(k, api)).body).toMatchObject({ allowed: true, quota_remaining: 49 });
    expect((await s.gw('PUT', `/gw/policies/${policy}`, { ...body, quota_max: 40 })).status).toBe(200);
    const kept = await recorded(() => check(other, api));
    const head = counterOf(keyHash(other), '').head;
    expect(kept.commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
    const again = await recorded(() => check(applies, api));
    expect(again.result.body).toMatchObject({ allowed: true, quota_remaining: 38 });
    expect(again.commands.map((c) => c.command)).toContain('GetItemCommand');
  });

  ownCommands("an organisation-session write forgets only its own keys' sessions: another organisation's key is not read again", async () => {
    const [a, b] = [await s.tenant(), await s.tenant()];
    const [apiA, apiB] = [await makeApi(s, a.orgId), await makeApi(s, b.orgId)];
    const { key: ofA } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiA), quota_max: 50, quota_renewal_rate: 3600 });
    const { key: ofB } = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(apiB), quota_max: 50, quota_renewal_rate: 3600 });
    expect((await check(ofA, apiA)).status).toBe(200);
    expect((await check(ofB, apiB)).status).toBe(200);
    expect((await s.gw('PUT', `/gw/org/keys/${a.orgId}`, { quota_max: 1, quota_renewal_rate: 3600 })).status).toBe(200);
    const kept = await recorded(() => check(ofB, apiB));
    const head = counterOf(keyHash(ofB), '').head;
    expect(kept.commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
    // A's key enforces its organisation's new quota at once: its one unit, then a refusal.
    const again = await recorded(() => check(ofA, apiA));
    expect(again.result.status).toBe(200);
    expect(again.commands.map((c) => c.command)).toContain('GetItemCommand');
    expect((await check(ofA, apiA)).body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    // A reset of the organisation's quota is seen at once too: this process forgot its counter was spent.
    expect((await s.gw('PUT', `/gw/org/keys/${a.orgId}?reset_quota=1`, { quota_max: 1, quota_renewal_rate: 3600 })).status).toBe(200);
    expect((await check(ofA, apiA)).status).toBe(200);
  });

  ownCommands("a key refused by its own quota leaves the organisation's counter alone; an allowed one writes the key's, then the organisation's", async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 100, quota_renewal_rate: 3600 })).status).toBe(200);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 2, quota_renewal_rate: 3600 });
    const head = counterOf(keyHash(key), '').head;
    const org = orgSessionKeys.quota(t.orgId);
    expect((await check(key, api)).status).toBe(200);
    const allowed = await recorded(() => check(key, api));
    expect(allowed.result.status).toBe(200);
    expect(allowed.commands).toEqual([
      { command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` },
      { command: 'UpdateItemCommand', key: `${org.PK}|${org.SK}` },
    ]);
    const refused = await recorded(() => check(key, api));
    expect(refused.result.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    // The refusal also records its QuotaExceeded event (one PutItem, contract §11) and counts itself
    // for billing (one ADD on a refusal tally, contract §14); the organisation's counter is not touched.
    const tally = expect.stringMatching(new RegExp(`^USAGEREF#${t.orgId}#\\d{4}-\\d{2}-\\d{2}\\|\\d#${api}$`));
    expect(refused.commands).toEqual([
      { command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` },
      { command: 'PutItemCommand', key: '' },
      { command: 'UpdateItemCommand', key: tally },
    ]);
    // A second refusal within a second records no second event (contract §11), and the process
    // knows the counter is spent (until its window ends, at most CACHE_SECONDS): the tally only.
    const again = await recorded(() => check(key, api));
    expect(again.result.status).toBe(429);
    expect(again.result.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    expect(again.commands).toEqual([{ command: 'UpdateItemCommand', key: tally }]);
    expect(await read(org)).toMatchObject({ used: 2 });
  });

  it('an organisation refusal gives the key its unit and its rate count back', async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 1, quota_renewal_rate: 3600 })).status).toBe(200);
    const a = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 10, per: 60 });
    const b = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 10, per: 60 });
    expect((await check(a.key, api)).status).toBe(200);
    const refused = await check(b.key, api);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    expect(await read(counterOf(keyHash(b.key), '').head)).toMatchObject({ used: 0, rate_count: 0 });
    expect((await s.gw('GET', `/gw/keys/${b.key}`)).body.quota_remaining).toBe(5);
  });
});
