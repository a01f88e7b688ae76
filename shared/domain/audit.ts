/**
 * The audit trail's rules (contract §12), pure: which objects it follows, what of them it may
 * show, and the change itself as an RFC 6902 JSON Patch (fast-json-patch, README "Dependencies").
 */
import type { Operation } from 'fast-json-patch';
// Its CommonJS entry names no ESM exports Node can detect: the default import works everywhere (Node, tsx, esbuild).
import jsonPatch from 'fast-json-patch';

export type { AuditObjectType } from '../schemas/audit';

export type AuditAction = 'create' | 'update' | 'delete';

/** What a redacted value reads as (the webhook answers' own mask). */
export const REDACTED = '********';

/**
 * Members whose value is a credential wherever they appear: passwords, secrets (sealed or hashed),
 * access and API keys, HMAC secrets, any stored hash but the key hash, which is how the trail
 * names a key (contract §12).
 */
const SECRET_MEMBER = /password|passwd|secret|private_?key|api_?key|access_?key|credential|hmac_string|_hash$|^token$/i;
const NAMES_THE_OBJECT = new Set(['key_hash']);
/** Members holding header maps, and the header names whose values are credentials. */
const HEADER_MAP = /header/i;
const SENSITIVE_HEADER = /auth|token|key|secret|cookie|session|signature|password|credential/i;

type Json = Record<string, unknown>;

function isPlain(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/**
 * The value with every credential replaced by REDACTED: members named like secrets (their whole
 * value), and in header maps the values of credential-like headers (or every value, with
 * `allHeaderValues`: a webhook's header_map is write-only).
 */
export function redact(value: unknown, opts: { allHeaderValues?: boolean } = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v, opts));
  if (!isPlain(value)) return value;
  const out: Json = {};
  for (const [name, v] of Object.entries(value)) {
    if (SECRET_MEMBER.test(name) && !NAMES_THE_OBJECT.has(name) && v !== null && v !== undefined && v !== '' && typeof v !== 'boolean') out[name] = REDACTED;
    else if (HEADER_MAP.test(name) && isPlain(v)) out[name] = redactHeaders(v, opts);
    else out[name] = redact(v, opts);
  }
  return out;
}

function redactHeaders(headers: Json, opts: { allHeaderValues?: boolean }): Json {
  return Object.fromEntries(
    Object.entries(headers).map(([name, v]) => [
      name,
      typeof v === 'string' && (opts.allHeaderValues || SENSITIVE_HEADER.test(name)) ? REDACTED : redact(v, opts),
    ]),
  );
}

/**
 * The change from `before` to `after` (absent: the object did not exist, read as `{}`) as an RFC
 * 6902 patch. Each `remove` and `replace` is preceded by a `test` of the old value, so the entry
 * says what was there as well as what came, and still applies to the old object exactly.
 */
export function auditPatch(before: Json | undefined, after: Json | undefined): Operation[] {
  return jsonPatch.compare(before ?? {}, after ?? {}, true);
}

export type { Operation };
