/** Response hygiene (RELIABILITY.md) and the error envelope of each credential group. */
import type { Group } from '../../../shared/route-def';

/** Signs of a leaked stack trace or storage error in an answer body. */
const LEAKS: Array<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^)\s]*:\d+(?::\d+)?\)?/],
  ['stack frame', /(?:^|\n|\\n)\s+at \S+/],
  ['ValidationException', /ValidationException/],
  ['ConditionalCheckFailed', /ConditionalCheckFailed/],
  ['TransactionCanceled', /TransactionCanceled/],
  ['DynamoDB', /DynamoDB/i],
  ['aws-sdk', /aws-sdk|@aws-sdk|\$metadata/],
  ['source path', /\.[cm]?[tj]s:\d|\.ts:|node_modules/],
];

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Problems with the headers every answer must carry, and with error bodies. */
export function hygieneProblems(a: Answer): string[] {
  const out: string[] = [];
  if (a.headers.get('x-content-type-options') !== 'nosniff') out.push(`X-Content-Type-Options is ${a.headers.get('x-content-type-options')}`);
  if (a.headers.get('cache-control') !== 'no-store') out.push(`Cache-Control is ${a.headers.get('cache-control')}`);
  if (a.status >= 400) {
    for (const [name, re] of LEAKS) if (re.test(a.text)) out.push(`error body leaks ${name}: ${a.text.slice(0, 300)}`);
  }
  return out;
}

/** Problems with an error answer's envelope for the group (contract §3). */
export function envelopeProblems(group: Group, a: Answer): string[] {
  const b = a.body as Record<string, unknown> | null;
  if (!(a.headers.get('content-type') ?? '').startsWith('application/json')) return [`Content-Type ${a.headers.get('content-type')}`];
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return [`body is not a JSON object: ${a.text.slice(0, 200)}`];
  if (group === 'gateway') {
    return b.status === 'error' && typeof b.message === 'string' && b.message !== '' ? [] : [`not the gateway envelope: ${a.text.slice(0, 200)}`];
  }
  const meta = b.Meta;
  return b.Status === 'Error' && typeof b.Message === 'string' && b.Message !== '' && 'Meta' in b && (meta === null || typeof meta === 'object')
    ? []
    : [`not the ${group} envelope: ${a.text.slice(0, 200)}`];
}
