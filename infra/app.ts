/**
 * The CDK app: one stage per synth, chosen by context (`-c stage=dev|prod`, default dev), with
 * its settings from infra/config.ts. The stack is named per stage, so stages share an account.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readStageConfig, stageNames } from './config';
import { ManagementStack } from './stack';

const app = new App();
const config = readStageConfig(app.node);
new ManagementStack(app, stageNames(config.stage).stack, {
  config,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  tags: { 'gw-management:stage': config.stage },
});
// synth and deploy stop on any AwsSolutions finding not acknowledged on its resource
// (infra/constructs/nag-acknowledgements.ts).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
