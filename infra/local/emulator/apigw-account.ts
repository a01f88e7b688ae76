/**
 * API Gateway v2 and ACM across the emulated account, in memory: the data-plane API of the
 * template, the per-domain APIs the reconciler makes (shared/services/data-plane-domains.ts), their
 * authorizers and stages, custom domain names with their API mappings, and the account's issued
 * certificates (ACM_CERTIFICATES: the emulator has no ACM to request one from, so the operator
 * names them at start). The control plane (./apigw-control.ts) changes it; the data plane
 * (./data-plane.ts) serves a request by its Host: a custom domain name's mapped API, else the
 * data-plane API (standing for its execute-api endpoint).
 */
import { randomUUID } from 'node:crypto';
import { certificateFor, type AuthorizerSpec, type Certificate } from '../../../shared/domain/apigw-domains';
import { DataPlaneState } from './data-plane-state';
import { emulatedAuthorizer, type EmulatedAuthorizer } from './template';

export interface EmulatedApi {
  ApiId: string;
  Name: string;
  Tags: Record<string, string>;
  DisableExecuteApiEndpoint: boolean;
  state: DataPlaneState;
  /** By id, as routes name them. */
  authorizers: Map<string, EmulatedAuthorizer & { AuthorizerUri?: string }>;
  stages: Set<string>;
}

export interface EmulatedDomainName {
  DomainName: string;
  CertificateArn: string;
  Tags: Record<string, string>;
  /** API mappings by id. */
  mappings: Map<string, { ApiMappingId: string; ApiId: string; Stage: string }>;
}

const newId = () => randomUUID().replace(/-/g, '').slice(0, 10);
const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const notFound = (message: string) => named('NotFoundException', message);
const conflict = (message: string) => named('ConflictException', message);
const badRequest = (message: string) => named('BadRequestException', message);

export class ApiGatewayAccount {
  readonly apis = new Map<string, EmulatedApi>();
  readonly domainNames = new Map<string, EmulatedDomainName>();
  readonly certificates: Certificate[];

  constructor(
    private readonly opts: {
      region: string;
      account: string;
      /** The function an authorizer's URI invokes, if the stack has it. */
      functionOf(uri: string): string | undefined;
      /** Issued certificates, one per comma-separated domain name (ACM_CERTIFICATES). */
      certificateNames?: string;
    },
  ) {
    this.certificates = (opts.certificateNames ?? '')
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean)
      .map((n) => ({ arn: `arn:aws:acm:${opts.region}:${opts.account}:certificate/${randomUUID()}`, names: [n] }));
  }

  /** The template's data-plane API, with the authorizers the template gives it. */
  addTemplateApi(apiId: string, authorizers: ReadonlyMap<string, EmulatedAuthorizer>): EmulatedApi {
    const api: EmulatedApi = {
      ApiId: apiId,
      Name: apiId,
      Tags: {},
      DisableExecuteApiEndpoint: false,
      state: new DataPlaneState(),
      authorizers: new Map(authorizers),
      stages: new Set(['$default']),
    };
    this.apis.set(apiId, api);
    return api;
  }

  api(apiId: string): EmulatedApi {
    const api = this.apis.get(apiId);
    if (!api) throw notFound(`Invalid API identifier specified ${apiId}`);
    return api;
  }

  createApi(input: { Name?: string; ProtocolType?: string; DisableExecuteApiEndpoint?: boolean; Tags?: Record<string, string> }): EmulatedApi {
    if (!input.Name || input.ProtocolType !== 'HTTP') throw badRequest('Name and ProtocolType HTTP are required');
    const ApiId = newId();
    const api: EmulatedApi = {
      ApiId,
      Name: input.Name,
      Tags: { ...input.Tags },
      DisableExecuteApiEndpoint: input.DisableExecuteApiEndpoint === true,
      state: new DataPlaneState(),
      authorizers: new Map(),
      stages: new Set(),
    };
    this.apis.set(ApiId, api);
    return api;
  }

  deleteApi(apiId: string): void {
    this.api(apiId);
    for (const d of this.domainNames.values())
      if ([...d.mappings.values()].some((m) => m.ApiId === apiId)) throw conflict(`API ${apiId} has an API mapping on ${d.DomainName}`);
    this.apis.delete(apiId);
  }

  createAuthorizer(apiId: string, spec: AuthorizerSpec): string {
    const api = this.api(apiId);
    const id = newId();
    // Read as a template's authorizer is: the same checks, the same identity sources.
    const { authorizer, problem } = emulatedAuthorizer(id, spec, this.opts.functionOf(spec.AuthorizerUri));
    if (!authorizer) throw badRequest(problem ?? 'the authorizer is not emulated');
    api.authorizers.set(id, { ...authorizer, AuthorizerUri: spec.AuthorizerUri });
    return id;
  }

  createDomainName(input: {
    DomainName?: string;
    DomainNameConfigurations?: Array<{ CertificateArn?: string }>;
    Tags?: Record<string, string>;
  }): EmulatedDomainName {
    const name = (input.DomainName ?? '').toLowerCase();
    const arn = input.DomainNameConfigurations?.[0]?.CertificateArn ?? '';
    if (!name) throw badRequest('DomainName is required');
    if (this.domainNames.has(name)) throw conflict(`The domain name resource already exists: ${name}`);
    this.checkCertificate(name, arn);
    const d = { DomainName: name, CertificateArn: arn, Tags: { ...input.Tags }, mappings: new Map() };
    this.domainNames.set(name, d);
    return d;
  }

  updateDomainName(name: string, certificateArn: string): void {
    const d = this.domainName(name);
    this.checkCertificate(d.DomainName, certificateArn);
    d.CertificateArn = certificateArn;
  }

  domainName(name: string): EmulatedDomainName {
    const d = this.domainNames.get(name.toLowerCase());
    if (!d) throw notFound(`Invalid domain name identifier specified ${name}`);
    return d;
  }

  createApiMapping(name: string, input: { ApiId?: string; Stage?: string; ApiMappingKey?: string }): string {
    const d = this.domainName(name);
    const api = this.api(input.ApiId ?? '');
    if (!input.Stage || !api.stages.has(input.Stage)) throw notFound(`Invalid stage identifier specified ${input.Stage}`);
    if (input.ApiMappingKey) throw badRequest('mapping keys are not emulated');
    if (d.mappings.size) throw conflict(`The domain ${d.DomainName} has an empty-key API mapping already`);
    const id = newId();
    d.mappings.set(id, { ApiMappingId: id, ApiId: api.ApiId, Stage: input.Stage });
    return id;
  }

  /** As API Gateway: a domain name with API mappings is kept. */
  deleteDomainName(name: string): void {
    const d = this.domainName(name);
    if (d.mappings.size) throw conflict(`Domain ${d.DomainName} has API mappings`);
    this.domainNames.delete(d.DomainName);
  }

  deleteApiMapping(name: string, id: string): void {
    if (!this.domainName(name).mappings.delete(id)) throw notFound(`Invalid API mapping identifier specified ${id}`);
  }

  createStage(apiId: string, name: string): void {
    const api = this.api(apiId);
    if (api.stages.has(name)) throw conflict(`Stage ${name} already exists`);
    api.stages.add(name);
  }

  /** The API a request on `host` reaches: a custom domain name's mapped API, else the template's data-plane API. */
  serving(host: string, fallback: string): EmulatedApi | undefined {
    const d = this.domainNames.get(host.toLowerCase().replace(/:\d+$/, ''));
    if (!d) return this.apis.get(fallback);
    const [mapping] = d.mappings.values();
    return mapping && this.apis.get(mapping.ApiId);
  }

  /** As API Gateway: a regional domain name needs an issued certificate of the region that covers it. */
  private checkCertificate(name: string, arn: string): void {
    if (
      certificateFor(
        name,
        this.certificates.filter((c) => c.arn === arn),
      ) !== arn
    )
      throw badRequest(`Certificate ${arn} does not cover ${name}`);
  }
}
