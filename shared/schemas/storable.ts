import * as z from 'zod';
import { LIMITS } from '../limits';
import { thousands } from '../lib/thousands';

/**
 * Numbers storage can hold (contract §11). DynamoDB keeps at most 38 significant digits within
 * about 1e-130..9.99e125, and the document client refuses any number beyond ±(2^53−1) (above
 * 2^53 every double is an integer, which it will not store imprecisely). A JavaScript number
 * never has more than 17 significant digits, so what remains to check is: finite, magnitude at
 * most 2^53−1, and zero or at least 1e-130.
 */
export const STORABLE_MAX = Number.MAX_SAFE_INTEGER;
const STORABLE_MIN_MAGNITUDE = 1e-130;

/** Why storage cannot hold `n`, or undefined when it can. */
export function unstorable(n: number): string | undefined {
  if (!Number.isFinite(n)) return 'must be a finite number';
  const magnitude = Math.abs(n);
  if (magnitude > STORABLE_MAX) return `must be within ±${STORABLE_MAX} (2^53−1), which storage holds exactly`;
  if (magnitude !== 0 && magnitude < STORABLE_MIN_MAGNITUDE) return `must be 0 or at least ${STORABLE_MIN_MAGNITUDE} in magnitude, which storage holds`;
  return undefined;
}

/** What the JSON Schema of a storable number cannot say (its range can be said and is). */
const STORABLE_NOTE = `0 or a magnitude of at least ${STORABLE_MIN_MAGNITUDE} (storage holds nothing smaller)`;

/** A number field that is stored: finite, within ±(2^53−1), and not in the gap around zero. */
export const storableNumber = /* @__PURE__ */ (() =>
  z
    .number()
    .min(-STORABLE_MAX)
    .max(STORABLE_MAX)
    // The range has its own messages; this names only the gap around zero.
    .refine((n) => n === 0 || Math.abs(n) >= STORABLE_MIN_MAGNITUDE || Math.abs(n) > STORABLE_MAX, { message: `must be ${STORABLE_NOTE}` }))();

/** Why storage cannot hold a member of this name, or undefined when it can. */
function unstorableName(name: string): string | undefined {
  if (name === '') return 'must not be an empty name: storage holds no member named ""';
  // UTF-16 units are never fewer than characters: count characters only when it may matter.
  if (name.length > LIMITS.storedNameChars && [...name].length > LIMITS.storedNameChars) {
    return `must be a name of at most ${LIMITS.storedNameChars} characters, which storage holds`;
  }
  return undefined;
}

/** A name as a refusal's path shows it: a name too long to store, cut, so the answer stays small. */
const shown = (name: string) => (name.length > LIMITS.storedNameChars ? `${name.slice(0, 64)}…` : name);

interface StorageProblem {
  path: PropertyKey[];
  message: string;
}

/**
 * What storage would refuse in `value` stored as attributes, with paths as Zod issues give them:
 * a number it cannot hold, a member name it cannot hold, a value nested past LIMITS.storedDepth
 * levels of the object stored, which sits `within` levels inside `value` (0: `value` is it).
 * Without recursion, so any nesting the parser took is safe.
 */
function storageProblems(value: unknown, within = 0, limit = 50): StorageProblem[] {
  const out: StorageProblem[] = [];
  const stack: Array<[unknown, PropertyKey[], number]> = [[value, [], 1 - within]];
  while (stack.length && out.length < limit) {
    const [v, path, level] = stack.pop()!;
    if (typeof v === 'number') {
      const why = unstorable(v);
      if (why) out.push({ path, message: why });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (level > LIMITS.storedDepth) {
      out.push({ path, message: `nests more than ${LIMITS.storedDepth} levels deep (the object stored is the first), deeper than storage holds` });
      continue;
    }
    const array = Array.isArray(v);
    for (const [k, child] of Object.entries(v)) {
      const why = array ? undefined : unstorableName(k);
      if (why) out.push({ path: [...path, shown(k)], message: why });
      if (typeof child === 'number' || (child !== null && typeof child === 'object')) stack.push([child, [...path, array ? Number(k) : shown(k)], level + 1]);
    }
  }
  return out;
}

/** A member of unknown type in a body stored as attributes: any JSON, which storableBody checks whole. */
export const storedValue = /* @__PURE__ */ (() => z.unknown())();

/** A member name a record of a stored body declares (its other names storableBody checks). */
export const storedName = /* @__PURE__ */ (() => z.string().min(1).max(LIMITS.storedNameChars))();

/** A record of a stored body whose values have a type of their own (its names are stored as attributes). */
export const storedRecord = <V extends z.ZodType>(value: V) =>
  z.record(storedName, value, {
    error: (issue) => (issue.code === 'invalid_key' ? `must be a name of 1 to ${LIMITS.storedNameChars} characters, which storage holds` : undefined),
  });

/**
 * A free-form object of a body stored as attributes (meta_data and similar): any members, kept as
 * sent. The document gives its names the StoredMemberName model.
 */
export const storedObject = /* @__PURE__ */ (() => z.record(z.string(), storedValue))();

/** An object of a body stored as attributes that keeps the members it does not name, as sent. */
export const storedLooseObject = <T extends z.ZodRawShape>(shape: T) => z.object(shape).catchall(storedValue);

/** Whether `schema` is an open object of a stored body (the document's generator asks). */
export function isStoredOpenObject(schema: unknown): boolean {
  const def = (schema as { _zod: { def: { type: string; catchall?: unknown; valueType?: unknown } } })._zod.def;
  return (def.type === 'object' && def.catchall === storedValue) || (def.type === 'record' && def.valueType === storedValue);
}

/** What storage holds of a body stored as attributes, in words (route descriptions and the document). */
export const STORED_BODY_RULES = /* @__PURE__ */ (() =>
  `The body is stored as attributes (contract §11): every number in it, meta_data and other kept members included, ` +
  `is 0 or of a magnitude from ${STORABLE_MIN_MAGNITUDE} to 2^53−1; every member name has 1 to ${thousands(LIMITS.storedNameChars)} ` +
  `characters; no object stored nests deeper than ${LIMITS.storedDepth} levels, itself the first (x-stored-depth gives the body's). ` +
  'Anything else is 400 naming its path.')();

/**
 * A body that is stored as DynamoDB attributes (keys, policies, organisations, OAuth clients):
 * every number, member name and nesting in it, in free-form members (meta_data, members the
 * schema keeps as sent) too, must be what storage holds, or the request is 400 naming the path
 * before any write. The objects stored sit `within` levels inside the body (an import's policies:
 * two). The document's `x-stored-depth` says how deep the body may nest.
 */
export function storableBody<T extends z.ZodType>(schema: T, within = 0) {
  return (
    schema
      .superRefine((value, ctx) => {
        for (const p of storageProblems(value, within)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
      })
      // The document: the whole body is what storage holds (the UnstorableValue model's negation), to
      // this depth. Said of the body rather than of each open member, so generated types keep their
      // open members as `unknown`.
      .meta({ 'x-stored-depth': LIMITS.storedDepth + within, not: { $ref: '#/components/schemas/UnstorableValue' } })
  );
}
