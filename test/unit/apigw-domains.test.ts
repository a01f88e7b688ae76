/**
 * Owned domains on the API Gateway data plane (shared/domain/apigw-domains.ts): which certificate
 * covers a domain, and which domains get a per-domain API, a custom domain name and a mapping.
 */
import { describe, expect, it } from 'vitest';
import { certificateFor, planDomains, type DomainPlanInput } from '../../shared/domain/apigw-domains';
import type { GatewayModel, GatewayRoute } from '../../shared/domain/gateway-model';
import { gatewayRoute } from '../support/gateway-route';

const route = (apiId: string) => gatewayRoute(apiId, `/${apiId}`);
const model = (hosts: Record<string, GatewayRoute[]>): GatewayModel => ({
  hosts: Object.entries(hosts).map(([host, routes]) => ({ host, routes })),
  skipped: [],
});
const input = (over: Partial<DomainPlanInput>): DomainPlanInput => ({ model: model({}), certificates: [], domainNames: [], apis: [], ...over });

describe('certificateFor', () => {
  const certs = [
    { arn: 'arn:b', names: ['*.example.com'] },
    { arn: 'arn:a', names: ['*.example.com', 'example.com'] },
    { arn: 'arn:exact', names: ['Shop.Example.com'] },
  ];
  it('prefers a certificate naming the host, then a wildcard one label up, the same one every time', () => {
    expect(certificateFor('shop.example.com', certs)).toBe('arn:exact');
    expect(certificateFor('books.example.com', certs)).toBe('arn:a');
    expect(certificateFor('books.example.com', [...certs].reverse())).toBe('arn:a');
    expect(certificateFor('example.com', certs)).toBe('arn:a');
  });
  it('never lets a wildcard cover two labels or another parent', () => {
    expect(certificateFor('a.b.example.com', certs)).toBeUndefined();
    expect(certificateFor('example.org', certs)).toBeUndefined();
    expect(certificateFor('localhost', certs)).toBeUndefined();
  });
});

describe('planDomains', () => {
  const cert = { arn: 'arn:cert', names: ['*.tenant.test'] };
  it('serves a domain with routes and a certificate (a new domain name with it), reports one without', () => {
    const p = planDomains(
      input({ model: model({ '': [route('s')], 'a.tenant.test': [route('a')], 'b.other.test': [route('b1'), route('b2')] }), certificates: [cert] }),
    );
    expect(p.serve).toEqual([{ host: 'a.tenant.test', certificateArn: 'arn:cert', domainName: 'create' }]);
    expect(p.skipped.map((x) => x.apiId)).toEqual(['b1', 'b2']);
    expect(p.skipped[0]!.reason).toContain('no issued ACM certificate covers b.other.test');
    expect(p.removeApis).toEqual([]);
  });

  it("keeps the API it made; moves its own domain name to another certificate; leaves the operator's domain name as it is", () => {
    const p = planDomains(
      input({
        model: model({ 'a.tenant.test': [route('a')], 'op.other.test': [route('o')] }),
        certificates: [cert],
        domainNames: [
          { name: 'a.tenant.test', certificateArn: 'arn:old', ours: true },
          { name: 'op.other.test', certificateArn: 'arn:operator', ours: false },
        ],
        apis: [{ apiId: 'api1', host: 'a.tenant.test' }],
      }),
    );
    expect(p.serve).toEqual([
      { host: 'a.tenant.test', apiId: 'api1', certificateArn: 'arn:cert', domainName: 'update' },
      { host: 'op.other.test', domainName: 'keep' },
    ]);
  });

  it('removes APIs and its own domain names no served domain needs, and a duplicate API (the later id)', () => {
    const p = planDomains(
      input({
        model: model({ 'a.tenant.test': [route('a')], 'empty.tenant.test': [] }),
        certificates: [cert],
        domainNames: [
          { name: 'a.tenant.test', certificateArn: 'arn:cert', ours: true },
          { name: 'gone.tenant.test', certificateArn: 'arn:cert', ours: true },
          { name: 'operator.tenant.test', certificateArn: 'arn:cert', ours: false },
        ],
        apis: [
          { apiId: 'zz2', host: 'a.tenant.test' },
          { apiId: 'aa1', host: 'a.tenant.test' },
          { apiId: 'gone1', host: 'gone.tenant.test' },
        ],
      }),
    );
    expect(p.serve).toEqual([{ host: 'a.tenant.test', apiId: 'aa1', domainName: 'keep' }]);
    expect(p.removeApis.map((a) => a.apiId).sort()).toEqual(['gone1', 'zz2']);
    expect(p.removeDomainNames).toEqual(['gone.tenant.test']);
  });
});
