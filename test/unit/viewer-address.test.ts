/**
 * Whose address a portal's sign-in counts attempts by (shared/http/viewer-address.ts): a gateway's
 * word only beside a valid gateway credential, CloudFront's only with the edge on, and otherwise
 * API Gateway's source address, whatever a client writes in those headers. The CloudFront
 * function that writes the edge's word is run here as CloudFront would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VIEWER_ADDRESS_FUNCTION } from '../../infra/constructs/viewer-address';
import { resetConfig } from '../../shared/config';
import { viewerAddressOf } from '../../shared/http/viewer-address';

const before = { gw: process.env.GW_SECRET, origin: process.env.ORIGIN_VERIFY };
const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
const SOURCE = '198.51.100.7';

beforeEach(() => {
  process.env.GW_SECRET = 'the-gateway-secret';
  delete process.env.ORIGIN_VERIFY;
  resetConfig();
});
afterEach(() => {
  restore('GW_SECRET', before.gw);
  restore('ORIGIN_VERIFY', before.origin);
  resetConfig();
});

describe("the viewer's address", () => {
  it("is a gateway's word for it only beside the gateway's credential, and only when it is an address", async () => {
    const vouched = { 'x-gw-viewer-address': '203.0.113.9', 'x-gw-authorization': 'the-gateway-secret' };
    expect(await viewerAddressOf(vouched, SOURCE)).toBe('203.0.113.9');
    expect(await viewerAddressOf({ ...vouched, 'x-gw-viewer-address': '2001:db8::1' }, SOURCE)).toBe('2001:db8::1');
    expect(await viewerAddressOf({ ...vouched, 'x-gw-authorization': 'a guess' }, SOURCE)).toBe(SOURCE);
    expect(await viewerAddressOf({ 'x-gw-viewer-address': '203.0.113.9' }, SOURCE)).toBe(SOURCE);
    expect(await viewerAddressOf({ ...vouched, 'x-gw-viewer-address': 'every sign-in' }, SOURCE)).toBe(SOURCE);
  });

  it("is CloudFront's word for it only with the edge on (where the origin's secret header already proved the way in)", async () => {
    const edge = { 'x-gw-edge-viewer': '203.0.113.10' };
    expect(await viewerAddressOf(edge, SOURCE)).toBe(SOURCE);
    process.env.ORIGIN_VERIFY = 'edge-secret-value';
    resetConfig();
    expect(await viewerAddressOf(edge, SOURCE)).toBe('203.0.113.10');
    expect(await viewerAddressOf({ 'x-gw-edge-viewer': 'x' }, SOURCE)).toBe(SOURCE);
  });

  it("is written by CloudFront's viewer-request function over whatever the client sent", () => {
    const handler = new Function(`${VIEWER_ADDRESS_FUNCTION}; return handler;`)() as (e: unknown) => { headers: Record<string, { value: string }> };
    const out = handler({ viewer: { ip: '203.0.113.11' }, request: { uri: '/portal/acme/sessions', headers: { 'x-gw-edge-viewer': { value: '10.0.0.1' } } } });
    expect(out.headers['x-gw-edge-viewer']).toEqual({ value: '203.0.113.11' });
  });
});
