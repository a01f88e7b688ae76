/**
 * Contract §11: a stage stopped between an event and its delivery delivers it after restart. The
 * first stage reads its stream once at start and then not for ten minutes (CHANGE_FEED_POLL_MS),
 * so the event recorded after that is certainly not delivered when it is killed; the second stage,
 * on the same DATA_DIR and table, resumes from the kept stream position and delivers it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../shared/domain/webhook-signature';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startReceiver } from '../support/receiver';
import { spawnStage, stageAt, type SpawnedStage } from '../support/stage';
import { useTestTable } from '../support/table';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-events-restart-'));
const spawned: SpawnedStage[] = [];
afterAll(async () => {
  await Promise.all(spawned.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('restart between an event and its delivery', () => {
  it('a QuotaExceeded recorded by a stage killed before delivering is delivered once the stage is back', async () => {
    const table = await useTestTable();
    const rx = await startReceiver();
    const env = { ALLOW_PRIVATE_TARGETS: '1', TABLE_NAME: table, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT };
    const first = await spawnStage({ dataDir, env: { ...env, CHANGE_FEED_POLL_MS: '600000' } });
    spawned.push(first);
    const s = stageAt(first.url, table, async () => {});
    const t = await s.tenant();
    const hook = await s.dash(t.key, 'POST', '/api/hooks', { name: uid('hook'), method: 'POST', target_path: rx.url });
    expect(hook.status).toBe(200);
    const apiId = uid('restart-api');
    const api = await s.gw('POST', '/gw/apis', {
      api_id: apiId,
      name: apiId,
      org_id: t.orgId,
      proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
      event_handlers: { events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hook.body.Meta } }] } },
    });
    expect(api.status).toBe(200);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 1, quota_renewal_rate: 3600 });
    const check = () => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/x', method: 'GET' });
    expect((await check()).status).toBe(200);
    const refused = await check();
    expect(refused.status).toBe(429);
    await first.stop('SIGKILL');
    expect(rx.calls).toHaveLength(0);

    const second = await spawnStage({ dataDir, env });
    spawned.push(second);
    const [call] = await rx.waitFor(1, 30_000);
    expect(call!.headers['x-gw-event']).toBe('QuotaExceeded');
    expect(JSON.parse(call!.body)).toMatchObject({ event: 'QuotaExceeded', api_id: apiId });
    expect(verifyWebhookSignature(hook.body.signing_secret, call!.headers['x-gw-signature']!, call!.body).ok).toBe(true);
    // The position the second stage keeps for the next start.
    expect(existsSync(join(dataDir, 'change-feed.json'))).toBe(true);
    await rx.close();
  }, 120_000);
});
