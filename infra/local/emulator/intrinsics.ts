/**
 * CloudFormation intrinsic functions resolved to local values: a table's Ref is the local table
 * name, a secret's Ref the ARN the local Secrets Manager endpoint serves, a function's ARN names
 * its logical id. Only what CDK templates put in environments, policies and integrations is
 * modelled (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select); anything else throws
 * UnresolvableError, and the caller decides whether that matters.
 */
import { createHash } from 'node:crypto';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

class UnresolvableError extends Error {}

/** Where the local stage pretends to live. */
export interface LocalAccount {
  region: string;
  account: string;
  stackName: string;
  /** Local name of each table, by logical id. */
  tableNames: Map<string, string>;
}

const TABLE_TYPES = new Set(['AWS::DynamoDB::Table', 'AWS::DynamoDB::GlobalTable']);
export const isTable = (r: CfnResource | undefined) => Boolean(r && TABLE_TYPES.has(r.Type));

/** A stable six-character suffix, like the one Secrets Manager appends to secret ARNs. */
const suffix = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 6);

export class Intrinsics {
  constructor(
    readonly template: CfnTemplate,
    readonly local: LocalAccount,
  ) {}

  tableArn(logicalId: string): string {
    return `arn:aws:dynamodb:${this.local.region}:${this.local.account}:table/${this.tableName(logicalId)}`;
  }

  tableName(logicalId: string): string {
    const name = this.local.tableNames.get(logicalId);
    if (!name) throw new UnresolvableError(`no local name for table ${logicalId}`);
    return name;
  }

  secretArn(logicalId: string): string {
    return `arn:aws:secretsmanager:${this.local.region}:${this.local.account}:secret:${logicalId}-${suffix(logicalId)}`;
  }

  functionArn(logicalId: string): string {
    return `arn:aws:lambda:${this.local.region}:${this.local.account}:function:${logicalId}`;
  }

  private ref(name: string): string | undefined {
    switch (name) {
      case 'AWS::Region':
        return this.local.region;
      case 'AWS::AccountId':
        return this.local.account;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return this.local.stackName;
      case 'AWS::StackId':
        return `arn:aws:cloudformation:${this.local.region}:${this.local.account}:stack/${this.local.stackName}/local`;
      case 'AWS::NoValue':
        return undefined;
    }
    const r = this.template.Resources[name];
    if (!r) throw new UnresolvableError(`Ref to unknown ${name}`);
    if (isTable(r)) return this.tableName(name);
    if (r.Type === 'AWS::SecretsManager::Secret') return this.secretArn(name);
    return name;
  }

  private getAtt(id: string, attr: string): string {
    const r = this.template.Resources[id];
    if (!r) throw new UnresolvableError(`Fn::GetAtt on unknown ${id}`);
    if (isTable(r) && attr === 'Arn') return this.tableArn(id);
    if (isTable(r) && attr === 'StreamArn') return `${this.tableArn(id)}/stream/local`;
    if (attr === 'Arn') {
      if (r.Type === 'AWS::Lambda::Function') return this.functionArn(id);
      if (r.Type === 'AWS::IAM::Role') return `arn:aws:iam::${this.local.account}:role/${id}`;
      const service = r.Type.split('::')[1]!.toLowerCase();
      return `arn:aws:${service}:${this.local.region}:${this.local.account}:${id}`;
    }
    throw new UnresolvableError(`Fn::GetAtt ${id}.${attr} is not modelled locally`);
  }

  /** Fn::Sub: each `${Name}` replaced, `${!Literal}` kept as `${Literal}` (one forward scan). */
  private sub(text: string, vars: Record<string, unknown>): string {
    let out = '';
    let from = 0;
    for (;;) {
      const open = text.indexOf('${', from);
      const close = open < 0 ? -1 : text.indexOf('}', open + 2);
      if (open < 0 || close < 0) return out + text.slice(from);
      const name = text.slice(open + 2, close);
      out += text.slice(from, open);
      if (name === '' || name.startsWith('!')) out += `\${${name.slice(1)}}`;
      else out += this.subValue(name, vars);
      from = close + 1;
    }
  }

  private subValue(name: string, vars: Record<string, unknown>): string {
    if (name in vars) return String(this.resolve(vars[name]));
    const dot = name.indexOf('.');
    if (dot > 0 && !name.startsWith('AWS::')) return String(this.getAtt(name.slice(0, dot), name.slice(dot + 1)));
    return String(this.ref(name));
  }

  /** The value with every intrinsic function replaced by its local value. */
  resolve(value: unknown): any {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [fn, arg] = entries[0]!;
      if (fn === 'Ref') return this.ref(String(arg));
      if (fn === 'Fn::GetAtt') {
        const [id, attr] = Array.isArray(arg) ? arg : String(arg).split(/\.(.*)/);
        return this.getAtt(String(id), String(this.resolve(attr)));
      }
      if (fn === 'Fn::Join') {
        const [sep, list] = arg as [string, unknown[]];
        return (this.resolve(list) as unknown[]).join(sep);
      }
      if (fn === 'Fn::Sub') {
        const [text, vars] = Array.isArray(arg) ? (arg as [string, Record<string, unknown>]) : [String(arg), {}];
        return this.sub(text, vars);
      }
      if (fn === 'Fn::Select') {
        const [index, list] = arg as [unknown, unknown];
        return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
      }
      if (fn.startsWith('Fn::') || fn === 'Condition') throw new UnresolvableError(`${fn} is not modelled locally`);
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v)]));
  }
}
