/**
 * cdk-nag's AwsSolutions pack over the stack, as CDK policy validation: synthesis fails on any
 * unacknowledged finding. Each acknowledgement carries its reason in infra/stack.ts.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManagementStack } from '../../infra/stack';

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'nag-')), context: { 'aws:cdk:bundling-stacks': [] } });
    new ManagementStack(app, 'Nag');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    let report = '';
    try {
      app.synth();
    } catch (e) {
      report = String((e as Error).message);
    }
    expect(report).toBe('');
  }, 120_000);
});
