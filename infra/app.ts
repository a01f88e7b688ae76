import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ManagementStack } from './stack';

const app = new App();
new ManagementStack(app, process.env.STACK_NAME || 'GwManagement', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// synth and deploy stop on any AwsSolutions finding that infra/stack.ts does not acknowledge.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
