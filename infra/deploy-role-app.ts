/**
 * A CDK app of its own for the GitHub OIDC roles (infra/deploy-role-stack.ts), so the CI role
 * never deploys its own trust: `npm run deploy:role -- -c githubRepo=owner/name`.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readDeployRoleConfig } from './config';
import { DEPLOY_ROLE_STACK, DeployRoleStack } from './deploy-role-stack';

const app = new App();
new DeployRoleStack(app, DEPLOY_ROLE_STACK, {
  config: readDeployRoleConfig(app.node),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
