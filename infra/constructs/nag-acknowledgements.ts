/**
 * cdk-nag (AwsSolutions) findings that are deliberate, each acknowledged on the one resource it
 * concerns with the reason it holds there; never on the stack. synth and the infra tests fail on
 * any other finding, so a new resource with a finding stops the build until it is fixed or
 * acknowledged here on that resource; an acknowledgement that no longer matches a finding fails
 * test/infra/nag.test.ts, so none outlives its reason.
 */
import { type CfnElement, DefaultStackSynthesizer, Names, Stack, Token, Validations } from 'aws-cdk-lib';
import type { HttpApi, HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IConstruct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import type { ConsoleHosting } from './console-hosting';

export interface AcknowledgedResources {
  table: TableV2;
  /** The deployment credentials (shared with operators) and the service key (only the service reads it). */
  secrets: { shared: Secret[]; serviceKey: Secret };
  /** Each function with the table actions it is granted (infra/constructs/table-grants.ts). */
  functions: Array<[LambdaFunction, readonly TableAction[]]>;
  api: HttpApi;
  routes: HttpRoute[];
  /** cmk=on: the functions that send to the webhook queues, which the stage's key encrypts. */
  queueSenders?: LambdaFunction[];
  /** edge=on: the distribution and the origin secret. */
  edge?: { distribution: Distribution; originSecret: Secret };
  /** The web console's hosting (a nested stack). */
  console?: ConsoleHosting;
}

export function acknowledgeFindings({ table, secrets, functions, api, routes, queueSenders = [], edge, console: hosting }: AcknowledgedResources): void {
  // The table's ARN as a finding names it: its own logical id in its stack; in a nested stack of
  // route functions (route-functions.ts), the parameter CDK makes to pass it in.
  const cfnTable = table.node.defaultChild as CfnElement;
  const tableArnIn = (scope: IConstruct) =>
    Stack.of(scope) === Stack.of(table) ? `<${Stack.of(table).getLogicalId(cfnTable)}.Arn>` : `<referenceto${Names.uniqueId(cfnTable)}Arn>`;

  // The $default route (unknown paths and methods) answers 404/405 without any credential.
  for (const route of [...routes, api.node.findChild('DefaultRoute')]) {
    Validations.of(route).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Every route checks its group's credential inside its function (Middy), which answers a refusal in " +
        "the group's envelope; an API Gateway authorizer would add a round trip to every request and could " +
        'not produce those envelopes.',
    });
  }

  // The grants are on each function's own role (infra/constructs/function-role.ts), beside it.
  for (const [f, actions] of functions) {
    Validations.of(f.role!).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The AWS-managed basic execution policy grants only the CloudWatch Logs writes every function needs.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Active tracing sends X-Ray segments (xray:PutTraceSegments, xray:PutTelemetryRecords), which have no resource-level permissions.',
      },
    );
    if (actions.includes('Query')) {
      Validations.of(f.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${tableArnIn(f.role!)}/index/*]`,
        reason: "The route queries the table's own indexes; the wildcard covers only this table's indexes, and only for dynamodb:Query.",
      });
    }
  }

  for (const s of secrets.shared) {
    Validations.of(s).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The new value of a gateway or admin secret must reach its users outside AWS before the two-version ' +
        'window closes, so a rotation is started by an operator with put-secret-value (docs/operating/security.md ' +
        '"Rotate a deployment secret"), not by a schedule that would lock the gateway out when nobody acts on it.',
    });
  }
  Validations.of(secrets.serviceKey).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The service key keys stored idempotency records and seals outstanding cursors, and functions read ' +
      'it once per container: a new value voids open cursors and lets a recent Idempotency-Key run again, ' +
      'so it is changed deliberately (docs/operating/security.md "Rotate a deployment secret"), not on a timer.',
  });

  for (const f of queueSenders) {
    Validations.of(f.role!).acknowledge(
      ...['kms:ReEncrypt*', 'kms:GenerateDataKey*'].map((a) => ({
        id: `AwsSolutions-IAM5[Action::${a}]`,
        reason:
          "CDK's grant to send to a KMS-encrypted queue (the webhook retry and dead-letter queues), on the " +
          "stage's key only: SQS asks the sender for a data key.",
      })),
    );
  }

  if (edge) {
    Validations.of(edge.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "The value reaches CloudFront's origin header and the functions' environment by dynamic references, " +
        'resolved only when CloudFormation updates them: a scheduled rotation would change it for neither. ' +
        'It is changed with a deploy (docs/operating/security.md "Edge protection").',
    });
    Validations.of(edge.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Gateways and operators call the service from wherever they run; no country is refused by default.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          "Every request that reaches the service is in the HTTP API's access log (route, status, latency), " +
          "and what the edge refuses is in the web ACL's metrics and sampled requests; CloudFront's own logs " +
          'would need a bucket or log delivery per stage, which an operator can add.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution answers on its cloudfront.net name, whose certificate CloudFront fixes at the ' +
          'TLSv1 policy; a minimum of TLS 1.2 needs a custom domain with its own ACM certificate, outside this ' +
          'option (docs/operating/security.md "Edge protection").',
      },
    );
  }

  if (hosting) acknowledgeConsole(hosting);
}

function acknowledgeConsole(hosting: ConsoleHosting): void {
  Validations.of(hosting.bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      "The bucket holds only the console's public build output, replaced by every deploy and read by nothing but the distribution (origin access control); " +
      "what users ask for is in the API's access log, and S3 access logs would need a second bucket per stage.",
  });
  Validations.of(hosting.distribution).acknowledge(
    { id: 'AwsSolutions-CFR1', reason: "An organisation's users open the console from wherever they work; no country is refused by default." },
    {
      id: 'AwsSolutions-CFR3',
      reason:
        "The console's files are public and static; every call it makes is in the HTTP API's access log (and, with edge=on, the web ACL's metrics and " +
        "samples). CloudFront's own logs would need a bucket or log delivery per stage, which an operator can add.",
    },
    {
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution answers on its cloudfront.net name, whose certificate CloudFront fixes at the TLSv1 policy; a minimum of TLS 1.2 needs a custom ' +
        'domain with its own ACM certificate (docs/using/console.md).',
    },
  );
  if (!hosting.behindWebAcl) {
    Validations.of(hosting.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        'Without the edge option the stage has no web ACL, and the API behind /api/* is as reachable at its own address; -c edge=on puts this distribution ' +
        "behind the stage's web ACL too (docs/using/console.md).",
    });
  }
  const stack = Stack.of(hosting);
  const qualifier = stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const bucketArn = `<${stack.getLogicalId(hosting.bucket.node.defaultChild as CfnElement)}.Arn>`;
  // The bootstrap bucket's name as the finding spells it: concrete where the stack's environment
  // is (the CDK CLI fills CDK_DEFAULT_REGION from the machine's AWS configuration), a token otherwise.
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const why =
    "CDK's BucketDeployment handler copies the console's files from the deployment's asset in the bootstrap bucket to the console bucket (and prunes stale " +
    "ones): read on that one bootstrap bucket, write and delete on the console bucket only; the wildcards are CDK's grant helpers' object-level actions.";
  for (const f of hosting.deploymentFunctions) {
    Validations.of(f).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The AWS-managed basic execution policy grants only the CloudWatch Logs writes every function needs.',
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((a) => ({ id: `AwsSolutions-IAM5[Action::${a}]`, reason: why })),
      { id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-${account}-${region}/*]`, reason: why },
      { id: `AwsSolutions-IAM5[Resource::${bucketArn}/*]`, reason: why },
      {
        id: 'AwsSolutions-L1',
        reason: "CDK's BucketDeployment handler is a Python function whose runtime CDK chooses and tests with its bundled AWS CLI layer.",
      },
    );
  }
}
