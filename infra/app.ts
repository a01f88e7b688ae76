import { App } from 'aws-cdk-lib';
import { ManagementStack } from './stack';

const app = new App();
new ManagementStack(app, process.env.STACK_NAME || 'GwManagement', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
