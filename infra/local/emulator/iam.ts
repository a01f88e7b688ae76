/**
 * The part of IAM the emulator enforces: a function's identity-based policy statements from the
 * template (Allow and Deny, actions and resources with `*` and `?` wildcards) against the actions
 * and resource ARNs a DynamoDB or Secrets Manager request needs, as AWS authorizes them.
 * Not modelled (README, "Emulate the cloud stage"): conditions, NotAction/NotResource,
 * permission boundaries, resource policies, session policies, SCPs and PartiQL's actions. A
 * statement using one of them is made stricter (see toStatement) and reported when the template
 * is read, so the emulator may refuse more than AWS, never less.
 */

export interface Statement {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
}

export interface Authorization {
  action: string;
  resource: string;
}

/**
 * A template statement in our form. One the evaluator cannot model is made stricter, never looser:
 * such an Allow is dropped, such a Deny applies without its condition (to everything when it
 * names NotAction or NotResource). `note` says what was changed.
 */
export function toStatement(raw: Record<string, unknown>): { statement?: Statement; note?: string } {
  const list = (v: unknown) => [v ?? []].flat().map(String);
  const effect = raw.Effect === 'Deny' ? 'Deny' : 'Allow';
  const unsupported = ['Condition', 'NotAction', 'NotResource', 'Principal', 'NotPrincipal'].filter((k) => k in raw);
  if (!unsupported.length) return { statement: { effect, actions: list(raw.Action), resources: list(raw.Resource) } };
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

const matches = (s: Statement, a: Authorization) =>
  s.actions.some((p) => wildcard(p, a.action, true)) && s.resources.some((p) => wildcard(p, a.resource, false));

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
export function dynamodbAuthorizations(operation: string, body: Json, tableArn: (nameOrArn: string) => string): Authorization[] {
  const on = (action: string, table: string, index?: string): Authorization => ({
    action: `dynamodb:${action}`,
    resource: index ? `${tableArn(table)}/index/${index}` : tableArn(table),
  });
  switch (operation) {
    case 'Query':
    case 'Scan':
      return [on(operation, body.TableName, body.IndexName)];
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys(body.RequestItems ?? {}).map((t) => on(operation, t));
    case 'TransactWriteItems': {
      const kinds: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };
      return (body.TransactItems ?? []).flatMap((item: Json) =>
        Object.entries(kinds).filter(([k]) => item[k]).map(([k, action]) => on(action, item[k].TableName)),
      );
    }
    case 'TransactGetItems':
      return (body.TransactItems ?? []).filter((item: Json) => item.Get).map((item: Json) => on('GetItem', item.Get.TableName));
    case 'ListTables':
      return [{ action: 'dynamodb:ListTables', resource: '*' }];
    default:
      if (typeof body.TableName !== 'string') return [{ action: `dynamodb:${operation}`, resource: '*' }];
      return [on(operation, body.TableName)];
  }
}

/** What a Secrets Manager request must be allowed: its own action on the secret's ARN. */
export function secretsAuthorizations(operation: string, secretArn: string): Authorization[] {
  return [{ action: `secretsmanager:${operation}`, resource: secretArn }];
}
