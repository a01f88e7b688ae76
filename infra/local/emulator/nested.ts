/**
 * A stack template with its nested stacks merged in, as CloudFormation wires them: each nested
 * stack's resources join the parent's, a Ref to one of its parameters becomes the value the parent
 * passes, and the parent's GetAtt of one of its outputs becomes that output's value. The stage's
 * route functions live in nested stacks (infra/constructs/route-functions.ts); once merged, what
 * reads the template sees one stage, routes to functions to roles, wherever each was put.
 */
import type { CfnResource, CfnTemplate } from './intrinsics';

type Json = unknown;

/** `value` with every `{ Ref: name }` whose name `swap` knows replaced by what it gives. */
function substitute(value: Json, swap: (node: Record<string, Json>) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => substitute(v, swap));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Record<string, Json>;
  const swapped = swap(node);
  if (swapped !== undefined) return swapped;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, swap)]));
}

/** The output name of a `Fn::GetAtt` of nested stack `id` (`Outputs.<name>`), if `node` is one. */
function outputOf(node: Record<string, Json>, id: string): string | undefined {
  const att = node['Fn::GetAtt'];
  if (Object.keys(node).length !== 1 || att === undefined) return undefined;
  const [target, attribute] = Array.isArray(att) ? (att as string[]) : String(att).split(/\.(.*)/s);
  return target === id && attribute?.startsWith('Outputs.') ? attribute.slice('Outputs.'.length) : undefined;
}

/**
 * `template` with the nested stacks `nestedOf` gives a template for merged in (recursively);
 * the others stay as they are. Logical ids are unique across the stacks merged, or this throws.
 */
export function mergeNestedStacks(template: CfnTemplate, nestedOf: (logicalId: string, resource: CfnResource) => CfnTemplate | undefined): CfnTemplate {
  let out = structuredClone(template);
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const found = nestedOf(id, resource);
    if (!found) continue;
    const nested = mergeNestedStacks(found, nestedOf) as CfnTemplate & { Parameters?: Record<string, { Default?: Json }> };
    const passed = (resource.Properties?.Parameters ?? {}) as Record<string, Json>;
    const declared = nested.Parameters ?? {};
    const inParent = substitute({ Resources: nested.Resources, Outputs: nested.Outputs ?? {} }, (node) => {
      const ref = node.Ref;
      if (Object.keys(node).length !== 1 || typeof ref !== 'string' || !(ref in declared)) return undefined;
      return passed[ref] ?? declared[ref]!.Default;
    }) as Required<CfnTemplate>;
    const { [id]: _merged, ...rest } = out.Resources;
    out = substitute({ ...out, Resources: rest }, (node) => {
      const name = outputOf(node, id);
      if (name === undefined) return undefined;
      if (!(name in inParent.Outputs)) throw new Error(`nested stack ${id} has no output ${name}`);
      return inParent.Outputs[name]!.Value;
    }) as CfnTemplate;
    for (const [childId, child] of Object.entries(inParent.Resources)) {
      // The CDK's version record, one per stack: the parent's stands for all.
      if (child.Type === 'AWS::CDK::Metadata') continue;
      if (childId in out.Resources) throw new Error(`logical id ${childId} of nested stack ${id} is also in its parent`);
      out.Resources[childId] = child;
    }
    // What waited for the nested stack now waits for nothing the merged template would name.
    for (const r of Object.values(out.Resources) as Array<CfnResource & { DependsOn?: string | string[] }>) {
      if (r.DependsOn === undefined) continue;
      const left = [r.DependsOn].flat().filter((d) => d !== id);
      if (left.length) r.DependsOn = left;
      else delete r.DependsOn;
    }
  }
  return out;
}
