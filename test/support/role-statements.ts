/** The statements a template grants a role: its inline policies and any AWS::IAM::Policy attached to it (mutable, as in the template). */
type Res = { Type: string; Properties: Record<string, any> };

export function roleStatements(resources: Record<string, Res>, roleId: string): Array<{ Action: string | string[]; Resource: unknown; [k: string]: unknown }> {
  const inline = (resources[roleId]?.Properties.Policies ?? []).flatMap((p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement);
  const attached = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
}
