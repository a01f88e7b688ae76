/**
 * What CloudFormation may do when it deploys one stage: the policy `cdk bootstrap
 * --cloudformation-execution-policies` gives the bootstrap's execution role instead of
 * AdministratorAccess (docs/operating/deploy.md "From an empty account to a CI deploy"). One statement per kind of
 * resource the stage stack holds (infra/stack.ts, with `cmk` and `edge` on), each limited to the
 * names that stage gives its resources (infra/config.ts `stageNames`) where the service has
 * names in its ARNs, else to the stage's tag or the service. Actions are the service's whole set
 * on those resources: CloudFormation's resource handlers call many read and tag actions beside
 * the create, update and delete, and change them between handler versions.
 * test/infra/deploy-role.test.ts checks every resource type of the synthesized stage is covered.
 */
import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { stageNames, type StageName } from './config';
import { consoleNames } from './constructs/console-hosting';

/** The one managed policy the stage's functions' roles carry (CDK's default for a function). */
const BASIC_EXECUTION_POLICY = `arn:${Aws.PARTITION}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole`;
/** The tag every resource of a stage carries (infra/app.ts). */
const STAGE_TAG = 'gw-management:stage';

/**
 * The CloudFormation resource types each statement (by Sid) exists for; a stage resource type
 * outside this list would need a new statement, and the test says which.
 */
export const COVERED_RESOURCE_TYPES: Record<string, string[]> = {
  NestedStacks: ['AWS::CloudFormation::Stack'],
  Table: ['AWS::DynamoDB::GlobalTable'],
  TableHandler: ['AWS::DynamoDB::GlobalTable'],
  Functions: ['AWS::Lambda::Function', 'AWS::Lambda::Permission'],
  EventSourceMappings: ['AWS::Lambda::EventSourceMapping'],
  FunctionRoles: ['AWS::IAM::Role', 'AWS::IAM::Policy'],
  LogGroups: ['AWS::Logs::LogGroup'],
  Secrets: ['AWS::SecretsManager::Secret'],
  Queues: ['AWS::SQS::Queue', 'AWS::SQS::QueuePolicy'],
  AlarmTopic: ['AWS::SNS::Topic', 'AWS::SNS::Subscription', 'AWS::SNS::TopicPolicy'],
  Alarms: ['AWS::CloudWatch::Alarm'],
  Dashboard: ['AWS::CloudWatch::Dashboard'],
  HttpApi: ['AWS::ApiGatewayV2::Api', 'AWS::ApiGatewayV2::Integration', 'AWS::ApiGatewayV2::Route', 'AWS::ApiGatewayV2::Stage'],
  Key: ['AWS::KMS::Key', 'AWS::KMS::Alias'],
  Distribution: ['AWS::CloudFront::Distribution'],
  WebAcl: ['AWS::WAFv2::WebACL'],
  ConsoleBucket: ['AWS::S3::Bucket', 'AWS::S3::BucketPolicy'],
  ConsoleDelivery: ['AWS::CloudFront::OriginAccessControl', 'AWS::CloudFront::ResponseHeadersPolicy'],
  ConsolePagePaths: ['AWS::CloudFront::Function'],
  ConsoleDeployment: ['AWS::Lambda::LayerVersion', 'Custom::CDKBucketDeployment'],
};

/** One statement of the policy, with why its wildcards are needed (the cdk-nag acknowledgement's reason). */
export interface ExecutionStatement {
  sid: string;
  actions: string[];
  resources: string[];
  conditions?: Record<string, Record<string, unknown>>;
  why: string;
}

const HANDLERS =
  "CloudFormation's handler for the resource type calls many of the service's actions (create, update, " +
  'delete, describe, list, tag), which change between handler versions';

export function executionPolicyStatements(stage: StageName, qualifier: string): ExecutionStatement[] {
  const n = stageNames(stage);
  const [P, R, A] = [Aws.PARTITION, Aws.REGION, Aws.ACCOUNT_ID];
  const arn = (service: string, resource: string) => `arn:${P}:${service}:${R}:${A}:${resource}`;
  const functionRoles = `arn:${P}:iam::${A}:role/${n.stack}-*`;
  // CloudFormation names what it names after the stack: <stack>-<logical id>-<suffix>.
  const generatedNames = 'CloudFormation names these <stack>-<logical id>-<suffix>, so only a prefix is known in advance';
  return [
    {
      sid: 'NestedStacks',
      actions: ['cloudformation:*'],
      resources: [arn('cloudformation', `stack/${n.stack}-*/*`)],
      why:
        "The stage's nested stacks (the route groups' functions, alarms and dashboard, the console) are created with this role; " +
        `${generatedNames}. ${HANDLERS}.`,
    },
    {
      sid: 'Table',
      actions: ['dynamodb:*'],
      resources: [arn('dynamodb', `table/${n.table}`), arn('dynamodb', `table/${n.table}/*`)],
      why: `The stage's table, its indexes and stream only. ${HANDLERS}.`,
    },
    {
      sid: 'TableHandler',
      actions: [
        'application-autoscaling:DescribeScalableTargets',
        'application-autoscaling:DescribeScalingPolicies',
        'application-autoscaling:DescribeScheduledActions',
        'kms:ListAliases',
        'cloudwatch:PutMetricData',
      ],
      resources: ['*'],
      why:
        "The table's handler (AWS::DynamoDB::GlobalTable) reads autoscaling settings and key aliases and " +
        'publishes its metrics: actions without resource-level permissions, and read-only but for the ' +
        'metrics.',
    },
    {
      sid: 'TableServiceRole',
      actions: ['iam:CreateServiceLinkedRole'],
      resources: [`arn:${P}:iam::${A}:role/aws-service-role/replication.dynamodb.amazonaws.com/*`],
      conditions: { StringEquals: { 'iam:AWSServiceName': 'replication.dynamodb.amazonaws.com' } },
      why:
        "DynamoDB's own service-linked role for global tables, which the table's handler creates when the " +
        "account has none; its path ends in AWS's fixed role name.",
    },
    {
      sid: 'Functions',
      actions: ['lambda:*'],
      resources: [arn('lambda', `function:${n.stack}-*`)],
      why: `The stage's functions only; ${generatedNames}. ${HANDLERS}.`,
    },
    {
      sid: 'EventSourceMappings',
      actions: [
        'lambda:CreateEventSourceMapping',
        'lambda:GetEventSourceMapping',
        'lambda:UpdateEventSourceMapping',
        'lambda:DeleteEventSourceMapping',
        'lambda:TagResource',
        'lambda:UntagResource',
        'lambda:ListTags',
      ],
      resources: [arn('lambda', 'event-source-mapping:*')],
      why: 'An event source mapping is named by a generated id only.',
    },
    {
      sid: 'FunctionRoles',
      actions: [
        'iam:CreateRole',
        'iam:DeleteRole',
        'iam:GetRole',
        'iam:UpdateRole',
        'iam:UpdateAssumeRolePolicy',
        'iam:TagRole',
        'iam:UntagRole',
        'iam:ListRoleTags',
        'iam:PutRolePolicy',
        'iam:GetRolePolicy',
        'iam:DeleteRolePolicy',
        'iam:ListRolePolicies',
        'iam:ListAttachedRolePolicies',
        'iam:DetachRolePolicy',
      ],
      resources: [functionRoles],
      why: `The roles of the stage's functions only; ${generatedNames}.`,
    },
    {
      sid: 'AttachBasicExecution',
      actions: ['iam:AttachRolePolicy'],
      resources: [functionRoles],
      conditions: { ArnEquals: { 'iam:PolicyARN': BASIC_EXECUTION_POLICY } },
      why: `Only AWSLambdaBasicExecutionRole, only to the stage's function roles; ${generatedNames}.`,
    },
    {
      sid: 'PassFunctionRoles',
      actions: ['iam:PassRole'],
      resources: [functionRoles],
      conditions: { StringEquals: { 'iam:PassedToService': 'lambda.amazonaws.com' } },
      why: `Only to Lambda, only the stage's function roles; ${generatedNames}.`,
    },
    {
      sid: 'LogGroups',
      actions: ['logs:*'],
      resources: [arn('logs', `log-group:/${n.prefix}/*`)],
      why: `The stage's log groups only (/${n.prefix}/...). ${HANDLERS}.`,
    },
    {
      sid: 'AccessLogDelivery',
      actions: [
        'logs:CreateLogDelivery',
        'logs:GetLogDelivery',
        'logs:UpdateLogDelivery',
        'logs:DeleteLogDelivery',
        'logs:ListLogDeliveries',
        'logs:PutResourcePolicy',
        'logs:DescribeResourcePolicies',
        'logs:DescribeLogGroups',
      ],
      resources: ['*'],
      why: 'HTTP API access logs are a vended log delivery, whose actions have no resource-level permissions.',
    },
    {
      sid: 'Secrets',
      actions: ['secretsmanager:*'],
      resources: [arn('secretsmanager', `secret:${n.prefix}/*`)],
      why: `The stage's secrets only (${n.prefix}/...; Secrets Manager appends a random suffix to each ARN). ${HANDLERS}.`,
    },
    {
      sid: 'SecretValues',
      actions: ['secretsmanager:GetRandomPassword'],
      resources: ['*'],
      why: 'Generated secret values come from GetRandomPassword, which names no resource.',
    },
    { sid: 'Queues', actions: ['sqs:*'], resources: [arn('sqs', `${n.prefix}-*`)], why: `The stage's queues only (${n.prefix}-...). ${HANDLERS}.` },
    { sid: 'AlarmTopic', actions: ['sns:*'], resources: [arn('sns', n.alarmTopic)], why: `The stage's alarm topic only. ${HANDLERS}.` },
    {
      sid: 'Alarms',
      actions: [
        'cloudwatch:PutMetricAlarm',
        'cloudwatch:DeleteAlarms',
        'cloudwatch:DescribeAlarms',
        'cloudwatch:TagResource',
        'cloudwatch:UntagResource',
        'cloudwatch:ListTagsForResource',
      ],
      resources: [arn('cloudwatch', `alarm:${n.prefix}*`)],
      why: `The stage's alarms only (named "${n.alarm('<what>')}"; the pattern has no space because acknowledgement ids cannot hold one).`,
    },
    {
      sid: 'Dashboard',
      actions: ['cloudwatch:PutDashboard', 'cloudwatch:GetDashboard', 'cloudwatch:DeleteDashboards'],
      resources: [`arn:${P}:cloudwatch::${A}:dashboard/${n.dashboard}`],
      why: "The stage's dashboard only.",
    },
    {
      sid: 'HttpApi',
      actions: ['apigateway:*'],
      resources: [`arn:${P}:apigateway:${R}::/apis`, `arn:${P}:apigateway:${R}::/apis/*`, `arn:${P}:apigateway:${R}::/tags/*`],
      why: `HTTP APIs and their routes, integrations and stages are named by generated ids. ${HANDLERS}.`,
    },
    // cmk=on: a key is named by a generated id, so the stage's tag (infra/app.ts) marks the stage's own.
    {
      sid: 'CreateKey',
      actions: ['kms:CreateKey', 'kms:TagResource'],
      resources: ['*'],
      conditions: { StringEquals: { [`aws:RequestTag/${STAGE_TAG}`]: stage } },
      why: `kms:CreateKey names no resource; only a key tagged ${STAGE_TAG}=${stage}.`,
    },
    {
      sid: 'Key',
      actions: ['kms:*'],
      resources: [arn('kms', 'key/*')],
      conditions: { StringEquals: { [`aws:ResourceTag/${STAGE_TAG}`]: stage } },
      why: `A key is named by a generated id: only keys tagged ${STAGE_TAG}=${stage}. ${HANDLERS}, and the table and queues need grants on it.`,
    },
    {
      sid: 'KeyAlias',
      actions: ['kms:CreateAlias', 'kms:UpdateAlias', 'kms:DeleteAlias'],
      resources: [arn('kms', n.keyAlias)],
      why: "The stage key's alias only.",
    },
    // edge=on (the stage is then in us-east-1, as CloudFront's web ACLs must be).
    {
      sid: 'Distribution',
      actions: ['cloudfront:*'],
      resources: [`arn:${P}:cloudfront::${A}:distribution/*`],
      why: `A distribution is named by a generated id. ${HANDLERS}.`,
    },
    {
      sid: 'WebAcl',
      actions: ['wafv2:*'],
      resources: [arn('wafv2', `global/webacl/${n.webAcl}/*`), arn('wafv2', 'global/managedruleset/*/*')],
      why: `The stage's web ACL only (its ARN ends in a generated id), and the AWS managed rule groups it uses. ${HANDLERS}.`,
    },
    // The web console (infra/constructs/console-hosting.ts, a nested stack of the stage).
    {
      sid: 'ConsoleBucket',
      actions: ['s3:*'],
      resources: [`arn:${P}:s3:::${consoleNames(n.prefix).bucket}`, `arn:${P}:s3:::${consoleNames(n.prefix).bucket}/*`],
      why: `The stage's console bucket only, and its objects (the deployment empties it when the stack is deleted). ${HANDLERS}.`,
    },
    {
      sid: 'ConsoleDelivery',
      actions: ['cloudfront:*'],
      resources: [`arn:${P}:cloudfront::${A}:origin-access-control/*`, `arn:${P}:cloudfront::${A}:response-headers-policy/*`],
      why: `An origin access control and a response headers policy are named by generated ids. ${HANDLERS}.`,
    },
    {
      sid: 'ConsolePagePaths',
      actions: ['cloudfront:*'],
      resources: [`arn:${P}:cloudfront::${A}:function/${consoleNames(n.prefix).pagesFunction}`],
      why: `The stage's console viewer-request function only. ${HANDLERS}.`,
    },
    {
      sid: 'ConsoleDeployment',
      actions: ['lambda:PublishLayerVersion', 'lambda:GetLayerVersion', 'lambda:DeleteLayerVersion'],
      resources: [arn('lambda', 'layer:*')],
      why:
        "The AWS CLI layer of CDK's BucketDeployment handler, named by CloudFormation from its logical id (the handler itself is one of the stage's " +
        'functions); CloudFormation invokes the handler under the Functions statement.',
    },
    {
      sid: 'Assets',
      actions: ['s3:GetObject'],
      resources: [`arn:${P}:s3:::cdk-${qualifier}-assets-${A}-${R}/*`],
      why: 'Function bundles and nested templates in the bootstrap bucket, named by their hashes.',
    },
    {
      sid: 'BootstrapVersion',
      actions: ['ssm:GetParameters'],
      resources: [arn('ssm', `parameter/cdk-bootstrap/${qualifier}/version`)],
      why: 'The bootstrap version check of every CDK template.',
    },
  ];
}

export const toPolicyStatement = (s: ExecutionStatement) =>
  new PolicyStatement({ sid: s.sid, actions: s.actions, resources: s.resources, conditions: s.conditions });
