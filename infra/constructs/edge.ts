/**
 * `-c edge=on` (docs/operating/security.md "Edge protection"): HTTP APIs cannot carry a WAF web ACL, so a CloudFront
 * distribution goes in front of the API with one.
 * - The distribution forwards every method, path, query string, cookie and viewer header but
 *   Host (API Gateway needs its own), caches nothing, and adds X-Origin-Verify with the stage's
 *   origin secret; every function refuses a request without it (shared/http/origin-verify.ts),
 *   so the API's own execute-api address stays reachable but answers only 403.
 * - The web ACL: a per-IP rate-based rule (blocking with 429) for every path but the gateway's
 *   `/gw/...` (gateways send the data-plane traffic from few addresses; the stage's route
 *   throttles still hold there), then AWS's common rule set with the rules that refuse what this
 *   service takes by design counted instead of blocked (COUNTED_RULES).
 * A CLOUDFRONT-scope web ACL exists only in us-east-1, so the stage stack must be there: synth
 * refuses another region it knows, and CloudFormation refuses the stack anywhere else before it
 * creates anything (the EdgeRegion rule), for stacks synthesized without a region.
 */
import { Aws, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionEventType,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../shared/http/origin-verify';
import { ConfigError } from '../config';
import { viewerAddressFunction } from './viewer-address';

/** The only region that holds CLOUDFRONT-scope web ACLs. */
const EDGE_REGION = 'us-east-1';

/**
 * Rules of AWSManagedRulesCommonRuleSet that would refuse requests this service exists to take;
 * they count (visible in the ACL's metrics and sampled requests) instead of blocking:
 * - SizeRestrictions_BODY blocks bodies over 8 KB: OpenAPI imports and API definitions reach 5 MB.
 * - GenericRFI_BODY blocks bodies holding URLs with IPv4 addresses: upstream URLs of API
 *   definitions and webhook targets are exactly that (the service checks those itself).
 */
export const COUNTED_RULES = ['SizeRestrictions_BODY', 'GenericRFI_BODY'] as const;

/** The paths the per-IP rate rule leaves alone (the gateway group: few callers, high volume). */
const RATE_EXEMPT_PREFIX = '/gw/';

export interface EdgeProps {
  api: HttpApi;
  /** What CloudFront sends as X-Origin-Verify: the dynamic reference the functions get too. */
  originVerifyValue: string;
  /** Requests per 5 minutes from one IP address to every path but /gw/... */
  rateLimit: number;
  webAclName: string;
  comment: string;
}

export class Edge extends Construct {
  readonly distribution: Distribution;
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    if (!Token.isUnresolved(stack.region) && stack.region !== EDGE_REGION) {
      throw new ConfigError('edge', `a CloudFront web ACL exists only in ${EDGE_REGION}; deploy this stage there (it is set to ${stack.region})`);
    }
    new CfnRule(this, 'EdgeRegion', {
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, EDGE_REGION),
          assertDescription: `With edge=on the stage must be deployed in ${EDGE_REGION}, where CloudFront's web ACLs live.`,
        },
      ],
    });

    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.webAclName,
      description: `In front of ${props.comment}`.replace(/[^a-zA-Z0-9+=:#@/\-,.\s]/g, ''),
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(props.webAclName),
      rules: [
        {
          name: 'RatePerIp',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429 } } },
          statement: {
            rateBasedStatement: {
              limit: props.rateLimit,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                notStatement: {
                  statement: {
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'STARTS_WITH',
                      searchString: RATE_EXEMPT_PREFIX,
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  },
                },
              },
            },
          },
          visibilityConfig: visibility(`${props.webAclName}-rate`),
        },
        {
          name: 'AwsCommonRuleSet',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility(`${props.webAclName}-common`),
        },
      ],
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: props.comment,
      defaultBehavior: {
        origin: new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          // A CloudFormation dynamic reference: the value is resolved at deploy time, never in the template.
          customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originVerifyValue },
        }),
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        functionAssociations: [
          { function: viewerAddressFunction(this, 'ViewerAddress', `${props.webAclName}-viewer`), eventType: FunctionEventType.VIEWER_REQUEST },
        ],
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      webAclId: this.webAcl.attrArn,
    });
  }
}
