/**
 * A CDK app of its own for one stage's GitHub OIDC roles and CloudFormation execution policy
 * (infra/deploy-role-stack.ts), so CI never deploys its own trust:
 * `npm run deploy:role -- -c githubRepo=owner/name -c stage=prod`, in that stage's account.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readDeployRoleConfig } from './config';
import { ciNames, DeployRoleStack } from './deploy-role-stack';

const app = new App();
const config = readDeployRoleConfig(app.node);
new DeployRoleStack(app, ciNames(config.stage).stack, {
  config,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  tags: { 'gw-management:stage': config.stage },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
