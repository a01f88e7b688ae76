/**
 * The cloud stacks as `cdk synth` builds them, without bundling the functions (synth does that;
 * the template is otherwise the deployed one) and with cdk-nag as policy validation when asked.
 */
import { App, Validations, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStageConfig, stageNames, type StageConfig } from '../../infra/config';
import { RouteFunctions } from '../../infra/constructs/route-functions';
import type { CfnTemplate } from '../../infra/local/emulator/intrinsics';
import { mergeNestedStacks } from '../../infra/local/emulator/nested';
import { ManagementStack } from '../../infra/stack';
import { roleStatements } from './role-statements';

export function cdkApp(context: Record<string, unknown> = {}, nag = false): App {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'cdk-')), context: { 'aws:cdk:bundling-stacks': [], ...context } });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
}

export function stageStack(context: Record<string, unknown> = {}, nag = false): { app: App; stack: ManagementStack; config: StageConfig } {
  const app = cdkApp(context, nag);
  const config = readStageConfig(app.node);
  const stack = new ManagementStack(app, stageNames(config.stage).stack, { config });
  return { app, stack, config };
}

/** The policy-validation report of a synth ('' when it passes). */
export function nagReport(app: App): string {
  try {
    app.synth();
    return '';
  } catch (e) {
    return String((e as Error).message);
  }
}

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; DependsOn?: string[] };

/**
 * The stack's own template with its nested stacks of route functions merged in, as the emulator
 * reads the assembly (infra/local/emulator/nested.ts): a route's function, role, permission and
 * integration are looked for wherever the stage put them. `stack.monitoring` and the console's
 * nested stack stay apart (templateOf(stack.monitoring)).
 */
function mergedTemplate(stack: Stack): Template {
  const homes = new Map(
    stack.node
      .findAll()
      .filter((c): c is RouteFunctions => c instanceof RouteFunctions && c.nestedStackParent === stack)
      .map((n) => [stack.getLogicalId(n.nestedStackResource!), n]),
  );
  if (!homes.size) return Template.fromStack(stack);
  const merged = mergeNestedStacks(Template.fromStack(stack).toJSON() as CfnTemplate, (id) => {
    const home = homes.get(id);
    return home && (Template.fromStack(home).toJSON() as CfnTemplate);
  });
  return Template.fromJSON(merged as unknown as Record<string, unknown>);
}

/** Reading helpers over a synthesized template (route functions' nested stacks merged in). */
/** A statement of a role's policy, with the table grant's condition when it has one. */
export type ItemStatement = { Action: string | string[]; Condition?: { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } } };

/** The leading-key patterns a table grant's statement allows (undefined: not a table item grant). */
export const leadingKeysOfStatement = (s: ItemStatement): string[] | undefined => s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];

export function templateOf(stack: Stack) {
  const template = mergedTemplate(stack);
  const resources = (type: string): Array<[string, Resource]> => Object.entries(template.findResources(type) as Record<string, Resource>);
  const functionOf = (routeName: string): [string, Resource] => {
    const hit = resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment?.Variables?.ROUTE_NAME === routeName);
    if (!hit) throw new Error(`no function for ${routeName}`);
    return hit;
  };
  /** Every statement of the policies attached to a function's role. */
  const statementsOf = (fn: Resource): Array<{ Action: string | string[]; Resource: unknown }> => {
    return roleStatements(template.toJSON().Resources, fn.Properties.Role['Fn::GetAtt'][0]);
  };
  const actionsOf = (fn: Resource): string[] => statementsOf(fn).flatMap((s) => [s.Action].flat());
  /** The statements of a function's role that name items by their leading keys (the table grants). */
  const itemStatementsOf = (routeName: string) => (statementsOf(functionOf(routeName)[1]) as ItemStatement[]).filter((s) => leadingKeysOfStatement(s));
  return { template, resources, functionOf, statementsOf, actionsOf, itemStatementsOf };
}
