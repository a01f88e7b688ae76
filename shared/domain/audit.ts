/**
 * The audit trail's rules (contract §12), pure: which objects it follows, what of them it may
 * show, and the change itself as an RFC 6902 JSON Patch (fast-json-patch, docs/developing/dependencies.md).
 */
import type { Operation } from 'fast-json-patch';
// Its CommonJS entry names no ESM exports Node can detect: the default import works everywhere (Node, tsx, esbuild).
import jsonPatch from 'fast-json-patch';
import type { AuditObjectType } from '../schemas/audit';
import { CREDENTIAL_MASK, credentialSpots, replaceSpots } from './credential-members';
import { sha256Hex } from '../lib/hashing';

export type { AuditObjectType };

export type AuditAction = 'create' | 'update' | 'delete';

/** What a credential reads as in an entry (the one mask of shared/domain/credential-members.ts). */
export const REDACTED = CREDENTIAL_MASK;

type Json = Record<string, unknown>;

/**
 * Inside the patch's making, a credential stands for a token of its digest (between two private-use
 * characters): two values differ exactly when the credentials do. No token leaves this module:
 * each becomes REDACTED.
 */
const TOKEN = /\uE000[0-9a-f]{64}\uE001/g;
const tokenOf = (secret: string) => `\uE000${sha256Hex(secret)}\uE001`;

function untokened(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(TOKEN, REDACTED);
  if (Array.isArray(v)) return v.map(untokened);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, untokened(x)]));
  return v;
}

/**
 * The change from `before` to `after` (absent: the object did not exist, read as `{}`) as an RFC
 * 6902 patch, every credential of the object's kind (credential-members.ts) as REDACTED. Each
 * `remove` and `replace` is preceded by a `test` of the old value, so the entry says what was
 * there as well as what came, and still applies to the old object exactly. A credential that
 * changed is a `test` and a `replace` of REDACTED: a masked change, never nothing.
 */
export function auditPatch(type: AuditObjectType, before: Json | undefined, after: Json | undefined): Operation[] {
  const tokened = (v: Json | undefined) => (v === undefined ? {} : replaceSpots(v, credentialSpots(type, v), tokenOf));
  return jsonPatch.compare(tokened(before), tokened(after), true).map((op) => ('value' in op ? { ...op, value: untokened(op.value) } : op) as Operation);
}

/**
 * Members of a user record that say who the user is and what it may do: a reader of an
 * organisation's trail sees them only when it may read the organisation's users as well
 * (`GET /api/users` shows them); otherwise each reads REDACTED (`email_lower` is the e-mail as stored for
 * lookups), a change of one as a masked change.
 */
const PERSONAL_USER_MEMBERS = new Set(['email_address', 'email_lower', 'first_name', 'last_name', 'user_permissions']);

const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The patch of a user entry without personal data: those members' values masked, a change inside one as one masked change of it. */
export function withoutPersonalData(changes: readonly Operation[]): Operation[] {
  const out: Operation[] = [];
  const collapsed = new Set<string>();
  for (const op of changes) {
    const m = /^\/([^/]*)(\/.*)?$/.exec(op.path);
    if (!m || !PERSONAL_USER_MEMBERS.has(unescapePointer(m[1]!))) out.push(op);
    else if (m[2] === undefined) out.push(('value' in op ? { ...op, value: REDACTED } : op) as Operation);
    else if (!collapsed.has(m[1]!)) {
      collapsed.add(m[1]!);
      out.push({ op: 'test', path: `/${m[1]}`, value: REDACTED }, { op: 'replace', path: `/${m[1]}`, value: REDACTED });
    }
  }
  return out;
}

export type { Operation };
