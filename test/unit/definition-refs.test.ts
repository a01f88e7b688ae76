import { describe, expect, it } from 'vitest';
import { definitionRefs, policyRefsOfClassic, policyRefsOfGateway, versionRefsOfClassic, versionRefsOfGateway } from '../../shared/domain/definition-refs';
import { classicToOas, oasToClassic } from '../../shared/domain/oas-classic';

/** Every place an OAS definition names a policy. */
const gateway = {
  info: { versioning: { versions: [{ id: 'v2-api', name: 'v2' }, { id: 'nameless-api' }, { name: 'no-id' }] } },
  server: {
    authentication: {
      oidc: {
        providers: [
          { issuer: 'https://idp.example', clientToPolicyMapping: [{ clientId: 'c1', policyId: 'pol-client' }, { clientId: 'c2' }] },
          { issuer: 'https://other.example' },
        ],
        scopes: { claimName: 'scope', scopeToPolicyMapping: [{ scope: 'read', policyId: 'pol-oidc-scope' }] },
      },
      securitySchemes: {
        jwt: { enabled: true, defaultPolicies: ['pol-jwt-default', ''], scopes: { scopeToPolicyMapping: [{ scope: 'w', policyId: 'pol-jwt-scope' }] } },
        key: { enabled: true },
      },
    },
  },
};

describe('ids an API definition names', () => {
  it('finds every policy of the OAS form: OIDC client and scope mappings, JWT default policies and scopes', () => {
    expect(policyRefsOfGateway(gateway).sort()).toEqual(['pol-client', 'pol-jwt-default', 'pol-jwt-scope', 'pol-oidc-scope']);
    expect(policyRefsOfGateway({})).toEqual([]);
    expect(policyRefsOfGateway({ server: { authentication: { oidc: { providers: 'x', scopes: [1] }, securitySchemes: [] } } })).toEqual([]);
  });

  it('finds every policy of the classic form', () => {
    const classic = {
      jwt_default_policies: ['p1'],
      jwt_scope_to_policy_mapping: { admin: 'p2' },
      openid_options: { providers: [{ issuer: 'i', client_ids: { client: 'p3' } }] },
      scopes: { jwt: { scope_to_policy: { read: 'p4' } }, oidc: { scope_to_policy: { write: 'p5' } } },
    };
    expect(policyRefsOfClassic(classic).sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });

  it('the classic form converted from an OAS one carries no policy the OAS check misses, and back', () => {
    const classic = oasToClassic(gateway as never);
    const fromOas = new Set(policyRefsOfGateway(gateway));
    expect(policyRefsOfClassic(classic).length).toBeGreaterThan(0);
    for (const id of policyRefsOfClassic(classic)) expect(fromOas.has(id), id).toBe(true);
    const back = classicToOas(classic);
    for (const id of policyRefsOfGateway(back)) expect(fromOas.has(id), id).toBe(true);
  });

  it('lists the version APIs of the classic form (definition.versions values), not version_data', () => {
    const classic = {
      definition: { versions: { v2: 'v2-api', v3: 'v3-api', blank: '', odd: 7 } },
      version_data: { versions: { Default: { name: 'Default', override_target: 'http://up.example' } } },
    };
    expect(versionRefsOfClassic(classic)).toEqual(['v2-api', 'v3-api']);
    expect(definitionRefs({ classic }).versionApis).toEqual(['v2-api', 'v3-api']);
    expect(versionRefsOfClassic({ definition: { versions: ['x'] } })).toEqual([]);
  });

  it('the classic form converted from an OAS one lists the same version APIs', () => {
    expect(versionRefsOfClassic(oasToClassic({ 'x-gw-api-gateway': gateway } as never))).toEqual(versionRefsOfGateway(gateway));
  });

  it('lists version APIs by id, named or not, and policies of both forms once', () => {
    const refs = definitionRefs({ oas: { 'x-gw-api-gateway': gateway }, classic: { jwt_default_policies: ['pol-client', 'classic-only'] } });
    expect(refs.versionApis).toEqual(['v2-api', 'nameless-api']);
    expect(refs.policies.sort()).toEqual(['classic-only', 'pol-client', 'pol-jwt-default', 'pol-jwt-scope', 'pol-oidc-scope']);
  });
});
