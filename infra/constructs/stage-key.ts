/**
 * `-c cmk=on` (docs/operating/security.md "Encryption keys"): one customer-managed KMS key per stage, rotated every
 * year, for the table (and its stream), the webhook queues and the stage's log groups. Functions
 * get only the key actions their table and queue access needs (infra/constructs/table-grants.ts,
 * the queues' grants); CloudWatch Logs may use it for the stage's own log groups only.
 */
import { Aws, Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface StageKeyProps {
  alias: string;
  /** Every log group of the stage starts with this (`/gw-management-<stage>/`). */
  logGroupPrefix: string;
  removalPolicy: RemovalPolicy;
}

export class StageKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: StageKeyProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      alias: props.alias,
      description: `Encrypts the table, webhook queues and log groups of ${props.alias.replace(/^alias\//, '')}`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
      // A destroyed stage's key can still be recovered for a week.
      pendingWindow: Duration.days(7),
    });
    // CloudWatch Logs encrypts with the key itself (not through the writer's role), so the key
    // policy names it, for this stage's log groups only.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'StageLogGroups',
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:${props.logGroupPrefix}*` },
        },
      }),
    );
  }
}
