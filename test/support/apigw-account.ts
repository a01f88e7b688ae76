/**
 * The emulator's API Gateway and ACM account (infra/local/emulator/apigw-account.ts) as the
 * reconciler's `DataPlaneAccount`, in process: what the SDK adapter
 * (shared/net/apigw-data-plane-account.ts) does over the wire, call for call, so a test can run the
 * reconciler against it, count its calls and fail one of them.
 */
import type { DataPlaneAccount } from '../../shared/domain/apigw-domains';
import { ApiGatewayAccount } from '../../infra/local/emulator/apigw-account';
import { domainApiOf, domainTags, madeByReconciler } from '../../shared/domain/apigw-domains';

export const AUTHORIZER_URI = 'arn:aws:apigateway:eu-west-1:lambda:path/2015-03-31/functions/arn:aws:lambda:eu-west-1:0:function:Authz/invocations';

export function emulatedAccount(certificateNames: string, sharedApiId = 'shared01'): { account: ApiGatewayAccount; api: DataPlaneAccount; calls: string[] } {
  const account = new ApiGatewayAccount({
    region: 'eu-west-1',
    account: '0',
    certificateNames,
    functionOf: (uri) => (uri === AUTHORIZER_URI ? 'Authz' : undefined),
  });
  account.addTemplateApi(sharedApiId, new Map());
  const calls: string[] = [];
  const call = <T>(name: string, f: () => T): Promise<Awaited<T>> => {
    calls.push(name);
    return Promise.resolve().then(f) as Promise<Awaited<T>>;
  };
  const api: DataPlaneAccount = {
    api: (apiId) => account.api(apiId).state,
    certificates: () => call('ListCertificates', () => account.certificates.map((c) => ({ ...c }))),
    domainApis: () => call('GetApis', () => [...account.apis.values()].flatMap((a) => domainApiOf(a.ApiId, a.Tags) ?? [])),
    createDomainApi: (host, name) =>
      call(
        'CreateApi',
        () =>
          account.createApi({
            Name: name,
            ProtocolType: 'HTTP',
            DisableExecuteApiEndpoint: true,
            Tags: domainTags(host),
          }).ApiId,
      ),
    ensureStage: (apiId) => call('GetStages', () => void (account.api(apiId).stages.has('$default') || account.createStage(apiId, '$default'))),
    deleteApi: (apiId) => call('DeleteApi', () => account.deleteApi(apiId)),
    authorizers: (apiId) =>
      call('GetAuthorizers', () => [...account.api(apiId).authorizers].map(([AuthorizerId, a]) => ({ AuthorizerId, AuthorizerUri: a.AuthorizerUri }))),
    createAuthorizer: (apiId, spec) => call('CreateAuthorizer', () => account.createAuthorizer(apiId, spec)),
    domainNames: () =>
      call('GetDomainNames', () =>
        [...account.domainNames.values()].map((d) => ({
          name: d.DomainName,
          certificateArn: d.CertificateArn,
          ours: madeByReconciler(d.Tags),
        })),
      ),
    createDomainName: (name, arn) =>
      call(
        'CreateDomainName',
        () =>
          void account.createDomainName({
            DomainName: name,
            DomainNameConfigurations: [{ CertificateArn: arn }],
            Tags: domainTags(name),
          }),
      ),
    updateDomainName: (name, arn) => call('UpdateDomainName', () => account.updateDomainName(name, arn)),
    deleteDomainName: (name) => call('DeleteDomainName', () => account.deleteDomainName(name)),
    apiMappings: (name) => call('GetApiMappings', () => [...account.domainName(name).mappings.values()].map((m) => ({ id: m.ApiMappingId, apiId: m.ApiId }))),
    createApiMapping: (name, apiId) => call('CreateApiMapping', () => void account.createApiMapping(name, { ApiId: apiId, Stage: '$default' })),
    deleteApiMapping: (name, id) => call('DeleteApiMapping', () => account.deleteApiMapping(name, id)),
  };
  return { account, api, calls };
}
