/**
 * A function's role whose grants are written into the role itself (one inline policy) instead of
 * a separate AWS::IAM::Policy per role. Same statements, same least privilege, one resource
 * fewer per function: with about 80 functions a stage would otherwise pass CloudFormation's 500
 * resources per stack (docs/reference/limits.md).
 */
import { ManagedPolicy, PolicyDocument, Role, ServicePrincipal, type AddToPrincipalPolicyResult, type PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

export class FunctionRole extends Role {
  /** Rendered when the template is written, so grants added after construction are in it. */
  private readonly access: PolicyDocument;

  constructor(scope: Construct, id: string) {
    const access = new PolicyDocument();
    super(scope, id, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      inlinePolicies: { access },
    });
    this.access = access;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.access.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}
