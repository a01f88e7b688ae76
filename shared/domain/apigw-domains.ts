/**
 * Owned domains on the API Gateway data plane (pure). HTTP API routes do not match on the host, so
 * each domain granted to an organisation is served by a data-plane API of its own (tagged with its
 * host, its execute-api endpoint switched off so it is reached only through the domain), behind an
 * API Gateway custom domain name and one API mapping. A domain is served where a certificate for
 * it exists: an issued ACM certificate naming it (exactly, or by a wildcard one label up), or a
 * custom domain name the operator made for it with their own certificate. The reconciler
 * (shared/services/data-plane.ts) applies what this decides through `DataPlaneAccount`.
 */
import type { DataPlaneApi } from './apigw-plan';
import type { GatewayModel } from './gateway-model';

/** The tags of a per-domain data-plane API: what the reconciler finds its own APIs by. */
const DOMAIN_API_TAG = { key: 'gw:role', value: 'data-plane-domain', host: 'gw:host' } as const;

/** The tags the reconciler puts on the APIs and custom domain names it makes: its role, and the domain served. */
export const domainTags = (host: string): Record<string, string> => ({ [DOMAIN_API_TAG.key]: DOMAIN_API_TAG.value, [DOMAIN_API_TAG.host]: host });

/** Whether a resource's tags say the reconciler made it. */
export const madeByReconciler = (tags: Record<string, string> | undefined): boolean => tags?.[DOMAIN_API_TAG.key] === DOMAIN_API_TAG.value;

/** The per-domain API an HTTP API is, by its tags; none for an API the reconciler did not make. */
export function domainApiOf(apiId: string | undefined, tags: Record<string, string> | undefined): DomainApi | undefined {
  const host = tags?.[DOMAIN_API_TAG.host];
  return apiId && host && madeByReconciler(tags) ? { apiId, host } : undefined;
}

/** The header the data plane's authorizers read the key from. */
export const DATA_PLANE_KEY_HEADER = 'Authorization';

/**
 * The data plane's Lambda authorizer, the same on the data-plane API (infra/constructs/data-plane.ts)
 * and on each per-domain API (the reconciler's): REQUEST, payload 2.0, simple responses, no result
 * cache, since each request spends a unit of quota and a cached allow would let requests through uncounted.
 */
export const dataPlaneAuthorizer = (uri: string): AuthorizerSpec => ({
  Name: 'data-plane-keys',
  AuthorizerType: 'REQUEST',
  AuthorizerUri: uri,
  AuthorizerPayloadFormatVersion: '2.0',
  EnableSimpleResponses: true,
  IdentitySource: [`$request.header.${DATA_PLANE_KEY_HEADER}`],
  AuthorizerResultTtlInSeconds: 0,
});

/** An issued ACM certificate: its ARN and the names it covers (its domain name and alternative names). */
export interface Certificate {
  arn: string;
  names: string[];
}

/** A per-domain data-plane API the reconciler made (by its tags). */
interface DomainApi {
  apiId: string;
  host: string;
}

/** An API Gateway custom domain name: `ours` when the reconciler made it (its tag), else the operator's. */
interface DomainName {
  name: string;
  certificateArn?: string;
  ours: boolean;
}

interface ApiMapping {
  id: string;
  apiId: string;
}

/** The Lambda authorizer of a per-domain API, as the reconciler creates it (the data-plane API's own, in the template, is the same). */
export interface AuthorizerSpec {
  Name: string;
  AuthorizerType: 'REQUEST';
  AuthorizerUri: string;
  AuthorizerPayloadFormatVersion: '2.0';
  EnableSimpleResponses: true;
  IdentitySource: string[];
  AuthorizerResultTtlInSeconds: 0;
}

/** API Gateway's calls across the account (an SDK client in the cloud, the emulator's locally). */
export interface DataPlaneAccount {
  api(apiId: string): DataPlaneApi;
  certificates(): Promise<Certificate[]>;
  domainApis(): Promise<DomainApi[]>;
  /** A per-domain API (tagged, its execute-api endpoint off): its id. */
  createDomainApi(host: string, name: string): Promise<string>;
  /** Its `$default` stage (auto-deployed), made when missing: what an API mapping names. */
  ensureStage(apiId: string): Promise<void>;
  deleteApi(apiId: string): Promise<void>;
  authorizers(apiId: string): Promise<Array<{ AuthorizerId: string; AuthorizerUri?: string }>>;
  createAuthorizer(apiId: string, spec: AuthorizerSpec): Promise<string>;
  domainNames(): Promise<DomainName[]>;
  createDomainName(name: string, certificateArn: string): Promise<void>;
  updateDomainName(name: string, certificateArn: string): Promise<void>;
  deleteDomainName(name: string): Promise<void>;
  apiMappings(domainName: string): Promise<ApiMapping[]>;
  createApiMapping(domainName: string, apiId: string): Promise<void>;
  deleteApiMapping(domainName: string, mappingId: string): Promise<void>;
}

/** The certificate that covers `host`: one naming it exactly first, else a wildcard for its parent (`*.example.com` covers `a.example.com` only). */
export function certificateFor(host: string, certificates: readonly Certificate[]): string | undefined {
  const h = host.toLowerCase();
  const dot = h.indexOf('.');
  const wildcard = dot > 0 ? `*${h.slice(dot)}` : undefined;
  const names = (c: Certificate) => c.names.map((n) => n.toLowerCase());
  const exact = certificates.filter((c) => names(c).includes(h));
  const covering = exact.length ? exact : certificates.filter((c) => wildcard !== undefined && names(c).includes(wildcard));
  // Several: the same choice on every run (by ARN), so runs never swap a domain's certificate back and forth.
  return covering.map((c) => c.arn).sort()[0];
}

export interface DomainPlanInput {
  model: GatewayModel;
  certificates: readonly Certificate[];
  domainNames: readonly DomainName[];
  apis: readonly DomainApi[];
  /** Whether a domain that carries a developer portal is served for it alone (the reconciler knows the portal's origin). */
  servesPortals?: boolean;
}

export interface ServedDomain {
  host: string;
  /** The per-domain API that serves it, when one exists already. */
  apiId?: string;
  /** What the custom domain name is to be made with or moved to; none: the operator's domain name, left as it is. */
  certificateArn?: string;
  domainName: 'create' | 'update' | 'keep';
}

export interface DomainPlan {
  serve: ServedDomain[];
  /** Per-domain APIs no served domain needs (a domain revoked, left without APIs or certificate, or a duplicate). */
  removeApis: DomainApi[];
  /** Custom domain names the reconciler made that no served domain needs. */
  removeDomainNames: string[];
  skipped: Array<{ apiId: string; listenPath: string; reason: string }>;
}

export function planDomains(input: DomainPlanInput): DomainPlan {
  const names = new Map(input.domainNames.map((d) => [d.name.toLowerCase(), d]));
  const serve: ServedDomain[] = [];
  const skipped: DomainPlan['skipped'] = [];
  for (const { host, routes, portal } of input.model.hosts) {
    // A domain is served for its APIs, or for its organisation's developer portal where the reconciler knows the portal's origin.
    if (host === '' || (routes.length === 0 && !(portal && input.servesPortals))) continue;
    const existing = names.get(host);
    const certificateArn = certificateFor(host, input.certificates);
    if (!existing && !certificateArn) {
      const reason = `no issued ACM certificate covers ${host} (and no API Gateway custom domain name exists for it)`;
      for (const r of routes) skipped.push({ apiId: r.apiId, listenPath: r.listenPath, reason });
      continue;
    }
    // The operator's own domain name keeps its certificate; ours follows ACM.
    const domainName = !existing ? 'create' : existing.ours && certificateArn && existing.certificateArn !== certificateArn ? 'update' : 'keep';
    const own = input.apis.filter((a) => a.host === host).sort((a, b) => a.apiId.localeCompare(b.apiId));
    serve.push({ host, ...(own[0] ? { apiId: own[0].apiId } : {}), ...(domainName === 'keep' ? {} : { certificateArn }), domainName });
  }
  const kept = new Set(serve.flatMap((d) => (d.apiId ? [d.apiId] : [])));
  const served = new Set(serve.map((d) => d.host));
  return {
    serve,
    removeApis: input.apis.filter((a) => !kept.has(a.apiId)),
    removeDomainNames: input.domainNames.filter((d) => d.ours && !served.has(d.name.toLowerCase())).map((d) => d.name),
    skipped,
  };
}
