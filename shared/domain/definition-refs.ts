/**
 * Ids of other objects that an API definition names (pure): policies it hands out on successful
 * authentication, and the APIs it lists as its versions, in the OAS and the classic form. A dashboard write may name only its own
 * organisation's (docs/developing/choices.md); the store checks them.
 */
import { GW_EXTENSION } from './oas-document';
import { isPlainObject } from '../lib/plain-object';

type Obj = Record<string, unknown>;

const asObj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const child = (o: unknown, key: string): Obj => asObj(asObj(o)[key]);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const ids = (values: unknown[]): string[] => values.filter((v): v is string => typeof v === 'string' && v !== '');
/** `member` of each object of a list (`[{..., policyId}]` -> the policy ids). */
const each = (entries: unknown, member: string): string[] => ids(list(entries).map((e) => asObj(e)[member]));
/** The values of a `{name: policyId}` map. */
const mapValues = (m: unknown): string[] => ids(Object.values(asObj(m)));

/**
 * Policy ids in an `x-gw-api-gateway`: OIDC `providers[].clientToPolicyMapping[].policyId` and
 * `scopes.scopeToPolicyMapping[].policyId`, and the JWT members the reference gateway keeps in its
 * security schemes (`defaultPolicies[]`, `scopes.scopeToPolicyMapping[].policyId`).
 */
export function policyRefsOfGateway(gw: unknown): string[] {
  const auth = child(child(gw, 'server'), 'authentication');
  const oidc = child(auth, 'oidc');
  const out = [
    ...list(oidc.providers).flatMap((p) => each(asObj(p).clientToPolicyMapping, 'policyId')),
    ...each(child(oidc, 'scopes').scopeToPolicyMapping, 'policyId'),
  ];
  for (const scheme of Object.values(child(auth, 'securitySchemes'))) {
    out.push(...ids(list(asObj(scheme).defaultPolicies)));
    out.push(...each(child(scheme, 'scopes').scopeToPolicyMapping, 'policyId'));
  }
  return [...new Set(out)];
}

/**
 * Policy ids in a classic definition: `jwt_default_policies`, `jwt_scope_to_policy_mapping`,
 * `openid_options.providers[].client_ids` and `scopes.{jwt,oidc}.scope_to_policy` (maps to
 * policy ids). An OAS API's classic form is converted from its document, so this also proves the
 * conversion carries no policy the document check missed.
 */
export function policyRefsOfClassic(classic: unknown): string[] {
  const c = isPlainObject(classic) ? classic : {};
  const scopes = child(c, 'scopes');
  return [
    ...new Set([
      ...ids(list(c.jwt_default_policies)),
      ...mapValues(c.jwt_scope_to_policy_mapping),
      ...list(child(c, 'openid_options').providers).flatMap((p) => mapValues(asObj(p).client_ids)),
      ...mapValues(child(scopes, 'jwt').scope_to_policy),
      ...mapValues(child(scopes, 'oidc').scope_to_policy),
    ]),
  ];
}

/** API ids an OAS definition lists as its versions: `info.versioning.versions[].id`, named or not. */
export const versionRefsOfGateway = (gw: unknown): string[] => each(child(child(gw, 'info'), 'versioning').versions, 'id');

/**
 * API ids a classic definition lists as its versions: the values of `definition.versions`
 * (version name -> api_id), the same links as the OAS form's. `version_data.versions` holds each
 * version's own settings (paths, headers, an upstream URL), never another API, so it names none.
 */
export const versionRefsOfClassic = (classic: unknown): string[] => mapValues(child(child(classic, 'definition'), 'versions'));

/**
 * The ids an API's definition names: policies and the APIs its version list names, in both forms
 * (a classic definition written as such names its versions only in its classic form).
 */
export function definitionRefs(api: { oas?: Obj | undefined; classic: Obj }): { policies: string[]; versionApis: string[] } {
  const gw = child(api.oas, GW_EXTENSION);
  return {
    policies: [...new Set([...policyRefsOfGateway(gw), ...policyRefsOfClassic(api.classic)])],
    versionApis: [...new Set([...versionRefsOfGateway(gw), ...versionRefsOfClassic(api.classic)])],
  };
}
