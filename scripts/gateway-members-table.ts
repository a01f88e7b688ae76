/**
 * The table of docs/using/serving-apis.md "What a gateway makes of each member", rendered from
 * GATEWAY_MEMBERS so the docs say what the gateway model does: members that share a status and a
 * reason share a row.
 */
import { GATEWAY_MEMBERS } from '../shared/domain/gateway-members';

export const MEMBERS_DOCUMENT = 'docs/using/serving-apis.md';
export const MEMBERS_START = '<!-- gateway-members:start (npm run generate) -->';
export const MEMBERS_END = '<!-- gateway-members:end -->';

const ORDER = { honoured: 0, approximated: 1, ignored: 2 } as const;

export function gatewayMembersMarkdown(): string {
  const rows = new Map<string, { status: keyof typeof ORDER; note: string; members: string[] }>();
  for (const [member, { status, note }] of Object.entries(GATEWAY_MEMBERS)) {
    const row = rows.get(`${status}\0${note}`) ?? { status, note, members: [] };
    row.members.push(`\`${member}\``);
    rows.set(`${status}\0${note}`, row);
  }
  const lines = [...rows.values()]
    .sort((a, b) => ORDER[a.status] - ORDER[b.status])
    .map((r) => `| ${r.members.join(', ')} | ${r.status} | ${r.note.replace(/\|/g, '\\|')} |`);
  return ['| Member (classic form; `*`: any key) | Status | What the gateways do |', '|---|---|---|', ...lines].join('\n');
}
