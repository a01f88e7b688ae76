/**
 * The part of IAM the emulator enforces: a function's identity-based policy statements from the
 * template (Allow and Deny, actions and resources with `*` and `?` wildcards, and the one condition
 * the stack writes: `ForAllValues:StringLike` on `dynamodb:LeadingKeys`, the partition keys a
 * DynamoDB request touches) against the actions, resource ARNs and partition keys a DynamoDB or
 * Secrets Manager request needs, as AWS authorizes them.
 * Not modelled (docs/operating/emulator.md): other conditions, NotAction/NotResource,
 * permission boundaries, resource policies, session policies, SCPs and PartiQL's actions. A
 * statement using one of them is made stricter (see toStatement) and reported when the template
 * is read, so the emulator may refuse more than AWS, never less.
 */

export interface Statement {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  /** `ForAllValues:StringLike` `dynamodb:LeadingKeys`: every partition key of the request matches one of these. */
  leadingKeys?: string[];
}

export interface Authorization {
  action: string;
  resource: string;
  /** The partition key values the request touches on this resource (none: an empty set, as in AWS). */
  leadingKeys?: string[];
}

const LEADING_KEYS = 'dynamodb:LeadingKeys';

/** The patterns of a condition that is exactly `ForAllValues:StringLike` on `dynamodb:LeadingKeys`, else undefined. */
function leadingKeysCondition(condition: unknown): string[] | undefined {
  if (!condition || typeof condition !== 'object') return undefined;
  const entries = Object.entries(condition as Record<string, unknown>);
  if (entries.length !== 1 || entries[0]![0] !== 'ForAllValues:StringLike') return undefined;
  const inner = entries[0]![1];
  if (!inner || typeof inner !== 'object' || Object.keys(inner).length !== 1 || !(LEADING_KEYS in inner)) return undefined;
  return [(inner as Record<string, unknown>)[LEADING_KEYS]].flat().map(String);
}

/**
 * A template statement in our form. One the evaluator cannot model is made stricter, never looser:
 * such an Allow is dropped, such a Deny applies without its condition (to everything when it
 * names NotAction or NotResource). `note` says what was changed.
 */
export function toStatement(raw: Record<string, unknown>): { statement?: Statement; note?: string } {
  const list = (v: unknown) => [v ?? []].flat().map(String);
  const effect = raw.Effect === 'Deny' ? 'Deny' : 'Allow';
  const leadingKeys = leadingKeysCondition(raw.Condition);
  const unsupported = ['Condition', 'NotAction', 'NotResource', 'Principal', 'NotPrincipal'].filter((k) => k in raw && !(k === 'Condition' && leadingKeys));
  if (!unsupported.length) return { statement: { effect, actions: list(raw.Action), resources: list(raw.Resource), ...(leadingKeys ? { leadingKeys } : {}) } };
  const note = `${effect} statement with ${unsupported.join(', ')}`;
  if (effect === 'Allow') return { note: `${note} left out` };
  const everything = 'NotAction' in raw || 'NotResource' in raw;
  return {
    statement: { effect, actions: everything ? ['*'] : list(raw.Action), resources: everything ? ['*'] : list(raw.Resource) },
    note: `${note} applied without it`,
  };
}

/**
 * IAM's `*` (any run) and `?` (one character) match, by the greedy two-pointer walk with
 * backtracking to the last `*`: no regular expression is built from a template's text.
 */
function wildcard(pattern: string, value: string, ignoreCase: boolean): boolean {
  const p = ignoreCase ? pattern.toLowerCase() : pattern;
  const v = ignoreCase ? value.toLowerCase() : value;
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (j < v.length) {
    if (i < p.length && (p[i] === '?' || p[i] === v[j])) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      resume = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++resume;
    } else return false;
  }
  while (p[i] === '*') i++;
  return i === p.length;
}

/** ForAllValues: true when every value matches a pattern, so also when the request has none (as in AWS). */
const leadingKeysHold = (s: Statement, a: Authorization) =>
  !s.leadingKeys || (a.leadingKeys ?? []).every((k) => s.leadingKeys!.some((p) => wildcard(p, k, false)));

const matches = (s: Statement, a: Authorization) =>
  s.actions.some((p) => wildcard(p, a.action, true)) && s.resources.some((p) => wildcard(p, a.resource, false)) && leadingKeysHold(s, a);

/** AWS's evaluation for one identity policy: an explicit Deny wins, else some Allow must match. */
export function evaluate(statements: readonly Statement[], a: Authorization): 'allowed' | 'explicit deny' | 'no allow' {
  if (statements.some((s) => s.effect === 'Deny' && matches(s, a))) return 'explicit deny';
  return statements.some((s) => s.effect === 'Allow' && matches(s, a)) ? 'allowed' : 'no allow';
}

type Json = Record<string, any>;

/**
 * What a DynamoDB request must be allowed, per the Service Authorization Reference: most
 * operations are their own action on the table; Query and Scan with IndexName act on the index
 * ARN; batches need the batch action on every table they name; transactions have no action of
 * their own and need each item's action (Put -> PutItem, ..., ConditionCheck -> ConditionCheckItem).
 */
export function dynamodbAuthorizations(operation: string, body: Json, tableArn: (nameOrArn: string) => string, partitionKey = 'PK'): Authorization[] {
  const on = (action: string, table: string, index?: string, keys: unknown[] = []): Authorization => {
    const leadingKeys = keys.map((k) => (k as Json | undefined)?.[partitionKey]?.S).filter((v): v is string => typeof v === 'string');
    return {
      action: `dynamodb:${action}`,
      resource: index ? `${tableArn(table)}/index/${index}` : tableArn(table),
      ...(leadingKeys.length ? { leadingKeys } : {}),
    };
  };
  switch (operation) {
    case 'Query':
    case 'Scan':
      return [on(operation, body.TableName, body.IndexName, body.IndexName ? [] : [queriedKey(body, partitionKey)])];
    case 'BatchGetItem':
      return Object.entries(body.RequestItems ?? {}).map(([t, r]) => on(operation, t, undefined, (r as Json).Keys ?? []));
    case 'BatchWriteItem':
      return Object.entries(body.RequestItems ?? {}).map(([t, r]) =>
        on(
          operation,
          t,
          undefined,
          (r as Json[]).map((w) => w.PutRequest?.Item ?? w.DeleteRequest?.Key),
        ),
      );
    case 'TransactWriteItems': {
      const kinds: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };
      return (body.TransactItems ?? []).flatMap((item: Json) =>
        Object.entries(kinds)
          .filter(([k]) => item[k])
          .map(([k, action]) => on(action, item[k].TableName, undefined, [item[k].Key ?? item[k].Item])),
      );
    }
    case 'TransactGetItems':
      return (body.TransactItems ?? []).filter((item: Json) => item.Get).map((item: Json) => on('GetItem', item.Get.TableName, undefined, [item.Get.Key]));
    case 'ListTables':
      return [{ action: 'dynamodb:ListTables', resource: '*' }];
    default:
      if (typeof body.TableName !== 'string') return [{ action: `dynamodb:${operation}`, resource: '*' }];
      return [on(operation, body.TableName, undefined, [body.Key ?? body.Item])];
  }
}

/** The partition key a table Query names: `<pk> = :v` (or `#n = :v`) in its key condition, as an item key. */
function queriedKey(body: Json, partitionKey: string): Json | undefined {
  const expression = String(body.KeyConditionExpression ?? '');
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  // Clause by clause, each anchored: one pass over the expression (a global search would restart inside words).
  for (const clause of expression.split(/\bAND\b/i)) {
    const m = /^\s*([#\w]+)\s*=\s*(:\w+)\s*$/.exec(clause);
    if (!m) continue;
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    if (name === partitionKey) return { [partitionKey]: body.ExpressionAttributeValues?.[m[2]!] };
  }
  return undefined;
}

/** What a Secrets Manager request must be allowed: its own action on the secret's ARN. */
export function secretsAuthorizations(operation: string, secretArn: string): Authorization[] {
  return [{ action: `secretsmanager:${operation}`, resource: secretArn }];
}
