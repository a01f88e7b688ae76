/** Whether a gateway serves an API as it is now (shared/domain/api-on-gateway.ts), from its last report. */
import { describe, expect, it } from 'vitest';
import { apiOnGateway, type StoredGatewayReport } from '../../shared/domain/api-on-gateway';

const report = (over: Partial<StoredGatewayReport> = {}): StoredGatewayReport => ({
  gateway_id: 'edge-1',
  kind: 'nginx',
  version: 10,
  changed_at: '2026-11-28T10:00:00.000Z',
  applied_at: '2026-11-28T10:00:01.000Z',
  failures: 0,
  last_error: null,
  skipped: [],
  reported_at: '2026-11-28T10:00:02.000Z',
  ...over,
});
const api = { api_id: 'pets', updated_at: '2026-11-28T10:00:05.000Z' };

describe('apiOnGateway', () => {
  it('applied when the gateway is at the current version, whatever the times say', () => {
    expect(apiOnGateway(api, report(), 10).state).toBe('applied');
  });
  it("applied when behind, but its table's version moved after the API's last change", () => {
    expect(apiOnGateway({ ...api, updated_at: '2026-11-28T09:59:59.000Z' }, report(), 12).state).toBe('applied');
  });
  it('pending when behind and the API changed after its table; the reason says whether the gateway fails', () => {
    expect(apiOnGateway(api, report(), 11)).toMatchObject({ state: 'pending', reason: null });
    expect(apiOnGateway(api, report({ changed_at: null }), 11).state).toBe('pending');
    const failing = apiOnGateway(api, report({ last_error: 'nginx -t: secret.example', failures: 1 }), 11);
    expect(failing.state).toBe('pending');
    expect(failing.reason).not.toContain('secret');
  });
  it('left out, with the reason given for this API, even at the current version', () => {
    expect(apiOnGateway(api, report({ skipped: [{ api_id: 'pets', reason: 'inactive' }] }), 10)).toMatchObject({ state: 'left_out', reason: 'inactive' });
    expect(apiOnGateway(api, report({ skipped: [{ api_id: 'cats', reason: 'inactive' }] }), 10).state).toBe('applied');
  });
});
