/**
 * API Gateway v2 and ACM across the account, through the AWS SDK: what the reconciler calls for
 * owned domains (shared/services/data-plane-domains.ts). The emulator answers the same calls
 * locally (AWS_ENDPOINT_URL_APIGATEWAYV2, AWS_ENDPOINT_URL_ACM).
 */
import { ACMClient, ListCertificatesCommand } from '@aws-sdk/client-acm';
import {
  ApiGatewayV2Client,
  CreateApiCommand,
  CreateApiMappingCommand,
  CreateAuthorizerCommand,
  CreateDomainNameCommand,
  CreateStageCommand,
  DeleteApiCommand,
  DeleteApiMappingCommand,
  DeleteDomainNameCommand,
  GetApiMappingsCommand,
  GetApisCommand,
  GetAuthorizersCommand,
  GetDomainNamesCommand,
  GetStagesCommand,
  UpdateDomainNameCommand,
} from '@aws-sdk/client-apigatewayv2';
import { domainApiOf, domainTags, madeByReconciler, type Certificate, type DataPlaneAccount } from '../domain/apigw-domains';
import { allPages, sdkDataPlane } from './apigw-data-plane';

const STAGE = '$default';

/** A custom domain name's settings: regional, TLS 1.2. */
const configuration = (certificateArn: string) => [{ CertificateArn: certificateArn, EndpointType: 'REGIONAL' as const, SecurityPolicy: 'TLS_1_2' as const }];

export function sdkDataPlaneAccount(client = new ApiGatewayV2Client({ maxAttempts: 5 }), acm = new ACMClient({ maxAttempts: 5 })): DataPlaneAccount {
  return {
    api: (apiId) => sdkDataPlane(apiId, client),
    async certificates() {
      const out: Certificate[] = [];
      let NextToken: string | undefined;
      do {
        const p = await acm.send(new ListCertificatesCommand({ CertificateStatuses: ['ISSUED'], NextToken, MaxItems: 1000 }));
        for (const c of p.CertificateSummaryList ?? []) {
          if (!c.CertificateArn) continue;
          const names = [c.DomainName, ...(c.SubjectAlternativeNameSummaries ?? [])].filter((n): n is string => !!n);
          out.push({ arn: c.CertificateArn, names: [...new Set(names)] });
        }
        NextToken = p.NextToken;
      } while (NextToken);
      return out;
    },
    async domainApis() {
      const apis = await allPages(async (NextToken) => client.send(new GetApisCommand({ NextToken, MaxResults: '100' })));
      return apis.flatMap((a) => domainApiOf(a.ApiId, a.Tags) ?? []);
    },
    async createDomainApi(host, name) {
      const made = await client.send(new CreateApiCommand({ Name: name, ProtocolType: 'HTTP', DisableExecuteApiEndpoint: true, Tags: domainTags(host) }));
      return made.ApiId!;
    },
    async ensureStage(apiId) {
      const stages = await allPages(async (NextToken) => client.send(new GetStagesCommand({ ApiId: apiId, NextToken, MaxResults: '100' })));
      if (!stages.some((s) => s.StageName === STAGE)) await client.send(new CreateStageCommand({ ApiId: apiId, StageName: STAGE, AutoDeploy: true }));
    },
    deleteApi: async (apiId) => void (await client.send(new DeleteApiCommand({ ApiId: apiId }))),
    async authorizers(apiId) {
      const items = await allPages(async (NextToken) => client.send(new GetAuthorizersCommand({ ApiId: apiId, NextToken, MaxResults: '100' })));
      return items.flatMap((a) => (a.AuthorizerId ? [{ AuthorizerId: a.AuthorizerId, AuthorizerUri: a.AuthorizerUri }] : []));
    },
    createAuthorizer: async (apiId, spec) => (await client.send(new CreateAuthorizerCommand({ ApiId: apiId, ...spec }))).AuthorizerId!,
    async domainNames() {
      const items = await allPages(async (NextToken) => client.send(new GetDomainNamesCommand({ NextToken, MaxResults: '100' })));
      return items.flatMap((d) =>
        d.DomainName
          ? [
              {
                name: d.DomainName,
                certificateArn: d.DomainNameConfigurations?.[0]?.CertificateArn,
                ours: madeByReconciler(d.Tags),
              },
            ]
          : [],
      );
    },
    async createDomainName(name, certificateArn) {
      await client.send(new CreateDomainNameCommand({ DomainName: name, DomainNameConfigurations: configuration(certificateArn), Tags: domainTags(name) }));
    },
    updateDomainName: async (name, certificateArn) =>
      void (await client.send(new UpdateDomainNameCommand({ DomainName: name, DomainNameConfigurations: configuration(certificateArn) }))),
    deleteDomainName: async (name) => void (await client.send(new DeleteDomainNameCommand({ DomainName: name }))),
    async apiMappings(domainName) {
      const items = await allPages(async (NextToken) => client.send(new GetApiMappingsCommand({ DomainName: domainName, NextToken, MaxResults: '100' })));
      return items.flatMap((m) => (m.ApiMappingId && m.ApiId ? [{ id: m.ApiMappingId, apiId: m.ApiId }] : []));
    },
    createApiMapping: async (domainName, apiId) =>
      void (await client.send(new CreateApiMappingCommand({ DomainName: domainName, ApiId: apiId, Stage: STAGE }))),
    deleteApiMapping: async (domainName, id) => void (await client.send(new DeleteApiMappingCommand({ DomainName: domainName, ApiMappingId: id }))),
  };
}
