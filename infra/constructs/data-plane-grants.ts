/**
 * What the data-plane reconciler may do in API Gateway and ACM (docs/operating/data-plane.md):
 * the data-plane API's routes and integrations, and, for owned domains, the per-domain APIs it
 * makes (their routes, integrations, authorizers, stages), custom domain names and their API
 * mappings, and the list of issued certificates. A per-domain API's id exists only once the
 * reconciler makes it, so those grants name every HTTP API and domain name of the account and
 * region: API Gateway V2 passes no tag of an API down to its routes and integrations, so a tag
 * condition could not narrow them. The reconciler itself touches only what carries its tags.
 */
import { Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

export function grantDataPlaneApis(reconciler: IFunction, region: string): void {
  const arn = (path: string) => `arn:aws:apigateway:${region}::${path}`;
  // Per verb, the paths the reconciler's calls name (the shared API's routes and integrations among
  // them: its id is known here, the others' are not). IAM's `*` also spans `/`, so the DELETE of an
  // API (`/apis/<id>`) reaches what is under it.
  const grants: Array<[verb: string, paths: string[]]> = [
    ['GET', ['/apis', '/apis/*', '/domainnames', '/domainnames/*']],
    ['POST', ['/apis', '/apis/*/routes', '/apis/*/integrations', '/apis/*/authorizers', '/apis/*/stages', '/domainnames', '/domainnames/*/apimappings']],
    ['PATCH', ['/apis/*/routes/*', '/apis/*/integrations/*', '/domainnames/*']],
    ['DELETE', ['/apis/*', '/domainnames/*']],
  ];
  for (const [verb, paths] of grants) reconciler.addToRolePolicy(new PolicyStatement({ actions: [`apigateway:${verb}`], resources: paths.map(arn) }));
  // ACM has no resource-level permission for listing certificates.
  reconciler.addToRolePolicy(new PolicyStatement({ actions: ['acm:ListCertificates'], resources: ['*'] }));

  // As cdk-nag writes the resources: an unresolved region is its pseudo parameter.
  const nagRegion = Token.isUnresolved(region) ? '<AWS::Region>' : region;
  const role = reconciler.role!;
  const wildcards = new Set(grants.flatMap(([, paths]) => paths.filter((p) => p.includes('*'))));
  for (const path of wildcards)
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:aws:apigateway:${nagRegion}::${path}]`,
      reason:
        'Owned domains: the reconciler makes a per-domain HTTP API, custom domain name and API mapping for each granted domain ' +
        'with a certificate, whose ids exist only after it makes them; it touches only those carrying its tags.',
    });
}
